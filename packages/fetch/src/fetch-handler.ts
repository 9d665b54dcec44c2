import type { AuthContext, Sessauth, SessauthRequest, SessauthResponse } from '@sessauth/core';
import { readFetchBody } from './read-fetch-body.js';

/** The connection facts a runtime hands its fetch handler (Hono's `ConnInfo`, cut down). */
export interface ConnInfo {
  /** The direct TCP peer, never a forwarded address. */
  readonly remoteAddress?: string | undefined;
}

export interface FetchHandlerOptions {
  /** The direct peer of a request when `handle` gets no `conn` (e.g. Bun: `server.requestIP(req)?.address`). */
  getPeerAddress?(request: Request): string | undefined;
  /** Whether the request came over TLS. @default the request URL's scheme is `https:` */
  secure?: boolean | ((request: Request) => boolean);
}

export interface FetchHandler<U> {
  /** Answers the seven endpoints under the prefix; resolves `undefined` for any other path. */
  handle(request: Request, conn?: ConnInfo): Promise<Response | undefined>;
  /** The guard of host routes; reads only `Authorization`. Rejects with a `SessauthError`. */
  authenticate(request: Request): Promise<AuthContext<U>>;
  /** The core's JSON error response for what `authenticate` threw. */
  errorResponse(error: unknown): Response;
}

/** Serves sessauth on standard `Request`/`Response` (Hono, Next.js route handlers, Bun, Deno, workers). */
export function createFetchHandler<U>(auth: Sessauth<U>, options: FetchHandlerOptions = {}): FetchHandler<U> {
  const { getPeerAddress, secure } = options;
  return {
    async handle(request, conn) {
      const url = new URL(request.url);
      const response = await auth.handle({
        method: request.method,
        path: url.pathname,
        query: url.search.slice(1),
        headers: headersOf(request.headers),
        peerAddress: conn?.remoteAddress ?? getPeerAddress?.(request) ?? null,
        secure: typeof secure === 'function' ? secure(request) : (secure ?? request.url.startsWith('https:')),
        readBody: (maxBytes) => readFetchBody(request, maxBytes),
      } satisfies SessauthRequest);
      return response === null ? undefined : toResponse(response);
    },
    authenticate(request) {
      return auth.authenticate({ authorization: authorizationValues(request.headers) });
    },
    errorResponse: (error) => toResponse(auth.errorResponse(error)),
  };
}

// Fetch has already joined repeated headers (", "; "; " for Cookie): the core still sees a
// repeated Cookie name or a joined Content-Type (415), and Authorization is split below.
function headersOf(headers: Headers): Map<string, string[]> {
  const map = new Map<string, string[]>();
  headers.forEach((value, name) => map.set(name, [...(map.get(name) ?? []), value]));
  const authorization = authorizationValues(headers);
  if (authorization !== undefined) map.set('authorization', authorization);
  return map;
}

// A Bearer token never holds a comma, so splitting undoes Fetch's join and a repeated
// Authorization fails closed (401) exactly as in the Node adapters.
function authorizationValues(headers: Headers): string[] | undefined {
  return headers.get('authorization')?.split(',').map((value) => value.trim());
}

/** Each cookie gets its own `Set-Cookie` line (never one joined header). */
export function toResponse(response: SessauthResponse): Response {
  const headers = new Headers(response.headers);
  for (const cookie of response.setCookies) headers.append('set-cookie', cookie);
  return new Response(response.body, { status: response.status, headers });
}
