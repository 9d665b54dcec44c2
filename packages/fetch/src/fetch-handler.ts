import type { AuthContext, AuthenticateInput, FreshnessRule, Sessauth, SetPassword } from '@sessauth/core';
import type { SessauthRequest, SessauthResponse } from '@sessauth/core/adapter';
import { fetchGuardInput } from './guard-input.js';
import { pathOf } from './path-of.js';
import { readFetchBody } from './read-fetch-body.js';

/** The connection facts a runtime hands its fetch handler (Hono's `ConnInfo`, cut down). */
export interface ConnInfo {
  /** The direct TCP peer, never a forwarded address. */
  readonly remoteAddress?: string | undefined;
  /**
   * TLS on the connection itself (Node: `socket.encrypted`). When given it decides
   * `secure`, as in the Node adapters: a client's absolute-form `https://` target
   * cannot claim it. A trusted proxy's `X-Forwarded-Proto` is the core's to read.
   */
  readonly encrypted?: boolean | undefined;
}

/**
 * The part of a Workers `ExecutionContext` (Hono: `c.executionCtx`) the handler uses: event
 * handlers run after the response, and a worker's request ends at its response unless its
 * remaining work is handed to `waitUntil`.
 */
export interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

export interface FetchHandlerOptions {
  /**
   * The direct peer of a request when `handle` gets no `conn`. Bun: `(req) => server.requestIP(req)?.address`.
   * Cloudflare Workers: `(req) => req.headers.get('cf-connecting-ip') ?? undefined` (set by Cloudflare's edge,
   * which replaces any value a client sent; trust it only behind Cloudflare). Deno passes
   * `{ remoteAddress: info.remoteAddr.hostname }` as `conn` instead.
   */
  getPeerAddress?(request: Request): string | undefined;
  /** Whether the request came over TLS. @default the request URL's scheme is `https:` */
  secure?: boolean | ((request: Request) => boolean);
  /**
   * The path the endpoints are mounted under, when the request URL carries more than the
   * prefix: a Next.js catch-all at `app/api/auth/[...sessauth]/route.ts` with the default
   * prefix is `'/api'`. The endpoints answer under `mountPath + prefix` and the refresh
   * cookie's default Path follows. The Hono middleware finds it by itself. @default ''
   */
  mountPath?: string;
}

export interface FetchHandler<U> {
  /**
   * Answers the endpoints under the prefix; resolves `null` for any other path (as the core does).
   * `mountPath` overrides the option of that name for this request.
   */
  handle(request: Request, conn?: ConnInfo, ctx?: WaitUntil, mountPath?: string): Promise<Response | null>;
  /**
   * The guard of host routes: `Authorization`, or with JWT_ACCESS_TOKEN_COOKIE on and no such header,
   * the access-token cookie (CSRF-checked for an unsafe method). Rejects with a `SessauthError`.
   */
  authenticate(request: Request, ctx?: WaitUntil): Promise<AuthContext<U>>;
  /** The guard of routes that work with or without a user: null without a credential (or with a cookie that no longer authenticates). */
  authenticateOptional(request: Request, ctx?: WaitUntil): Promise<AuthContext<U> | null>;
  /**
   * `authenticate` for a sensitive route (RFC 9470): also rejects with
   * `SessauthError('insufficient_user_authentication')` when the session's last sign-in or
   * step-up is older than `rule.maxAgeSeconds` (or did not reach `rule.acr`); `errorResponse`
   * turns it into the 401 with its `WWW-Authenticate` challenge.
   */
  requireFresh(request: Request, rule: FreshnessRule, ctx?: WaitUntil): Promise<AuthContext<U>>;
  /** The core's JSON error response for what `authenticate` threw. */
  errorResponse(error: unknown): Response;
  /** `auth.changePassword` for a route behind `authenticate` (see @sessauth/core). */
  changePassword(request: Request, caller: AuthContext<U>, setPassword: SetPassword<U>, conn?: ConnInfo, ctx?: WaitUntil): Promise<Response>;
  /**
   * A host route's request as the core sees it, for `auth.createSessionFor(userId, { request })`
   * (client address and User-Agent resolved as the login resolves them). The body is not read.
   */
  sessauthRequest(request: Request, conn?: ConnInfo): SessauthRequest;
  /** A core response (such as `created.response()` of `auth.createSessionFor`) as a `Response`, one Set-Cookie per cookie. */
  toResponse(response: SessauthResponse): Response;
}

/** Serves sessauth on standard `Request`/`Response` (Hono, Next.js route handlers, Bun, Deno, workers). */
export function createFetchHandler<U>(auth: Sessauth<U>, options: FetchHandlerOptions = {}): FetchHandler<U> {
  const { getPeerAddress, secure } = options;
  const translate = (request: Request, conn: ConnInfo | undefined, mountPath = ''): SessauthRequest => {
    const url = new URL(request.url);
    return {
      method: request.method,
      path: url.pathname,
      ...(mountPath === '' ? {} : { mountPath }),
      query: url.search.slice(1),
      headers: headersOf(request.headers),
      peerAddress: conn?.remoteAddress ?? getPeerAddress?.(request) ?? null,
      secure: conn?.encrypted ?? (typeof secure === 'function' ? secure(request) : (secure ?? request.url.startsWith('https:'))),
      readBody: (maxBytes) => readFetchBody(request, maxBytes),
      // Aborted by the runtime when the client disconnects (Node's server adapters, Bun, Deno).
      signal: request.signal,
    };
  };
  // The guard's input: the Authorization header, and only when a setting needs more the request
  // facts: DPoP's method and URI (JWT_DPOP), the access-token cookie's cookies and CSRF inputs
  // (JWT_ACCESS_TOKEN_COOKIE, when no Authorization header came).
  const guardInput = (request: Request): AuthenticateInput => {
    const authorization = authorizationValues(request.headers);
    const dpop = auth.options.dpop !== 'off';
    if (!dpop && (!auth.options.accessTokenCookie || authorization !== undefined)) return { authorization };
    if (dpop && authorization !== undefined) return fetchGuardInput(request, options);
    const { method, path, headers, peerAddress, secure: overTls } = translate(request, undefined);
    return { authorization, request: { method, path, headers, peerAddress, secure: overTls } };
  };
  // The events a call emitted run after it answers: on Workers they must outlive the response.
  const keepEvents = <T>(work: Promise<T>, ctx: WaitUntil | undefined): Promise<T> =>
    ctx === undefined ? work : work.finally(() => ctx.waitUntil(auth.eventsSettled()));
  return {
    async handle(request, conn, ctx, mountPath = options.mountPath ?? '') {
      // Host routes skip the translation entirely.
      if (!auth.handles(pathOf(request.url), mountPath)) return null;
      const response = await keepEvents(auth.handle(translate(request, conn, mountPath)), ctx);
      return response === null ? null : toResponse(response);
    },
    authenticate(request, ctx) {
      return keepEvents(auth.authenticate(guardInput(request)), ctx);
    },
    authenticateOptional(request, ctx) {
      return keepEvents(auth.authenticateOptional(guardInput(request)), ctx);
    },
    async requireFresh(request, rule, ctx) {
      const context = await keepEvents(auth.authenticate(guardInput(request)), ctx);
      auth.assertFresh(context, rule);
      return context;
    },
    errorResponse: (error) => toResponse(auth.errorResponse(error)),
    changePassword: async (request, caller, setPassword, conn, ctx) =>
      toResponse(await keepEvents(auth.changePassword(translate(request, conn), caller, setPassword), ctx)),
    sessauthRequest: (request, conn) => translate(request, conn),
    toResponse,
  };
}

// Fetch has already joined repeated headers (", "; "; " for Cookie): the core still sees a
// repeated Cookie name, a joined Content-Type (415) or a comma in Authorization (401).
function headersOf(headers: Headers): Map<string, string[]> {
  const map = new Map<string, string[]>();
  headers.forEach((value, name) => {
    map.set(name, [...(map.get(name) ?? []), value]);
  });
  return map;
}

function authorizationValues(headers: Headers): string[] | undefined {
  const value = headers.get('authorization');
  return value === null ? undefined : [value];
}

/** Each cookie gets its own `Set-Cookie` line (never one joined header). */
export function toResponse(response: SessauthResponse): Response {
  const headers = new Headers(response.headers);
  for (const cookie of response.setCookies) headers.append('set-cookie', cookie);
  return new Response(response.body, { status: response.status, headers });
}
