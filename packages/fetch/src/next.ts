import { SessauthError, type AuthContext, type GuardRequest, type Sessauth } from '@sessauth/core';
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from './fetch-handler.js';
import { fetchGuardInput } from './guard-input.js';

// No import from `next`: these are plain Fetch functions, which is what an App Router
// route handler is, so the package needs no Next.js at install or at type-check time.

/**
 * The engine, the promise `createSessauth` returns, or a function giving either. The
 * function form is read on first use only: `next build` imports route modules, and an
 * engine built at import would read settings the build does not have.
 */
export type SessauthSource<U> = Sessauth<U> | PromiseLike<Sessauth<U>> | (() => Sessauth<U> | PromiseLike<Sessauth<U>>);

/** An App Router route handler: Next passes a `NextRequest` (a `Request`) and a context this one ignores. */
export type NextRouteHandler = (request: Request) => Promise<Response>;

/** The exports of `app/auth/[...sessauth]/route.ts`. */
export interface NextRouteHandlers {
  readonly GET: NextRouteHandler;
  readonly POST: NextRouteHandler;
  readonly DELETE: NextRouteHandler;
  readonly PATCH: NextRouteHandler;
  readonly OPTIONS: NextRouteHandler;
}

/** What `headers()` of `next/headers` returns, or any `Headers`. */
export interface HeadersLike {
  get(name: string): string | null;
}

/**
 * The route handlers of a catch-all route under the API prefix (and, with the admin
 * listing on, one under the admin prefix): `export const { GET, POST, DELETE, PATCH,
 * OPTIONS } = nextRouteHandlers(auth)`. In a folder below the app's root
 * (`app/api/auth/[...sessauth]/route.ts`) it serves there, and the refresh cookie's Path follows. Route handlers see no socket, so the peer
 * address is unknown unless `options.getPeerAddress` names it (see the README).
 */
export function nextRouteHandlers<U>(auth: SessauthSource<U>, options: FetchHandlerOptions = {}): NextRouteHandlers {
  // Built on the first request, not at import: `next build` imports route modules, and
  // a rejected engine promise must not surface as an unhandled rejection there.
  let pending: Promise<FetchHandler<U>> | undefined;
  const handlerOf = (): Promise<FetchHandler<U>> => (pending ??= engineOf(auth).then((engine) => createFetchHandler(engine, options)));
  const serve: NextRouteHandler = async (request) => {
    const handler = await handlerOf();
    // Every request here is for the catch-all, so without a `mountPath` the core finds the
    // folders above the prefix itself (`app/api/auth/[...sessauth]`: '/api'), as for a wildcard mount.
    const mountPath = options.mountPath ?? new URL(request.url).pathname;
    // Null: the catch-all sits outside the prefix (a misplaced route file); the core's 404.
    return (await handler.handle(request, undefined, undefined, mountPath)) ?? handler.errorResponse(new SessauthError('not_found'));
  };
  return {
    GET: serve,
    POST: serve,
    DELETE: serve,
    PATCH: serve,
    // The core leaves preflights to the host's CORS layer; a same-origin page never sends
    // one, so this only says which methods exist (what Next answers by default).
    OPTIONS: async () => new Response(null, { status: 204, headers: { allow: 'GET, POST, DELETE, PATCH, OPTIONS' } }),
  };
}

/** How `getSession` reads a call given only `headers()`. */
export interface GetSessionOptions {
  /**
   * A server action (a POST with a `Next-Action` header) authenticated by the access-token
   * cookie then needs no `X-CSRFToken`, only an `Origin` whose host is the request's
   * (`X-Forwarded-Host`, else `Host`) or one of JWT_CSRF_TRUSTED_ORIGINS: the check Next.js
   * itself runs on every server action since 14. Off (the default), a server action by the
   * cookie needs the CSRF token as any unsafe request does. See docs/server-rendering.md.
   */
  readonly trustNextActionOriginCheck?: boolean;
}

/**
 * The caller's session for a server component (`await headers()`), a route handler or
 * middleware (the `Request`): the guard of host routes on the `Authorization: Bearer`
 * header, or, with JWT_ACCESS_TOKEN_COOKIE on and no such header, on the access-token cookie
 * a plain page load carries. Null when there is no credential, the header is no Bearer token,
 * or the token is bad, expired or its session ended (the guard's 400 and 401s); any other
 * failure, such as a store fault or a cookie-authenticated unsafe call without its CSRF
 * token (403), rejects. Given `headers()` there is no method: a call with a `Next-Action`
 * header (a server action) or an `Origin` header (a browser sends one on a POST, not on a
 * page load) is read as a POST, anything else as a page render (GET).
 */
export async function getSession<U>(
  auth: SessauthSource<U>,
  source: Request | HeadersLike,
  options: GetSessionOptions = {},
): Promise<AuthContext<U> | null> {
  const headers = isRequest(source) ? source.headers : source;
  const authorization = headers.get('authorization');
  if (authorization === null && headers.get('cookie') === null) return null;
  const engine = await engineOf(auth);
  if (authorization === null && !engine.options.accessTokenCookie) return null;
  try {
    // A Request names its URI, so a DPoP token's proof can be checked; bare headers cannot.
    if (authorization !== null) return await engine.authenticate(isRequest(source) ? fetchGuardInput(source) : { authorization: [authorization] });
    return await engine.authenticateOptional({ authorization: undefined, request: guardRequestOf(engine, source, headers, options) });
  } catch (error) {
    if (isNoSession(error)) return null;
    throw error;
  }
}

// What the cookie guard reads. A `headers()` source has neither method nor socket.
const GUARD_HEADERS = ['cookie', 'host', 'origin', 'referer', 'x-csrftoken', 'x-forwarded-proto'] as const;

function guardRequestOf<U>(engine: Sessauth<U>, source: Request | HeadersLike, headers: HeadersLike, options: GetSessionOptions): GuardRequest {
  const map = new Map<string, string[]>();
  for (const name of GUARD_HEADERS) {
    const value = headers.get(name);
    if (value !== null) map.set(name, [value]);
  }
  if (isRequest(source)) return { method: source.method, headers: map, peerAddress: null, secure: source.url.startsWith('https:') };
  const origin = headers.get('origin');
  const action = headers.get('next-action') !== null;
  // No method: a page render (GET) unless the headers say a browser sent a state change.
  if (!action && origin === null) return { method: 'GET', headers: map, peerAddress: null, secure: false };
  if (action && options.trustNextActionOriginCheck === true) {
    // Next refused the action unless its Origin is the host's; the same check here, so
    // the option cannot admit what Next would not.
    if (origin === null || !sameHost(origin, headers, engine.options.csrfTrustedOrigins)) throw new SessauthError('csrf_failed');
    return { method: 'GET', headers: map, peerAddress: null, secure: false };
  }
  // The core's rules of an unsafe request: a same-origin Origin and the X-CSRFToken. The
  // scheme of the own origin is not in the headers; the Origin's (the host must still match).
  return { method: 'POST', headers: map, peerAddress: null, secure: origin?.startsWith('https:') ?? false };
}

/** Whether `origin` is the request's own host (as Next compares it) or a trusted origin. */
function sameHost(origin: string, headers: HeadersLike, trusted: readonly string[]): boolean {
  const parsed = httpUrl(origin);
  if (parsed === null) return false;
  if (trusted.some((entry) => httpUrl(entry)?.origin === parsed.origin)) return true;
  const host = (headers.get('x-forwarded-host') ?? headers.get('host'))?.split(',')[0]?.trim().toLowerCase();
  return host !== undefined && host.length > 0 && parsed.host === host;
}

function httpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

function engineOf<U>(source: SessauthSource<U>): Promise<Sessauth<U>> {
  return Promise.resolve(typeof source === 'function' ? source() : source);
}

function isRequest(source: Request | HeadersLike): source is Request {
  return typeof (source as Partial<Request>).headers?.get === 'function';
}

// The guard's 401s (bad, expired, ended) and its 400 for an Authorization header that
// is no Bearer token (Basic for something else): client input, so no session rather than
// an error page. By name as well as class: a bundler may hold a second copy of the core.
function isNoSession(error: unknown): boolean {
  const candidate = error as Partial<SessauthError> | null;
  return (error instanceof SessauthError || candidate?.name === 'SessauthError') && (candidate?.status === 401 || candidate?.status === 400);
}
