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
      const response = await auth.handle({
        method: request.method,
        path: new URL(request.url).pathname,
        headers: headersOf(request.headers),
        peerAddress: conn?.remoteAddress ?? getPeerAddress?.(request) ?? null,
        secure: typeof secure === 'function' ? secure(request) : (secure ?? request.url.startsWith('https:')),
        readBody: (maxBytes) => readFetchBody(request, maxBytes),
      } satisfies SessauthRequest);
      return response === null ? undefined : toResponse(response);
    },
    authenticate(request) {
      const value = request.headers.get('authorization');
      return auth.authenticate({ authorization: value === null ? undefined : [value] });
    },
    errorResponse: (error) => toResponse(auth.errorResponse(error)),
  };
}

// Fetch has already joined repeated headers (", "; "; " for Cookie), so each name has one value here.
function headersOf(headers: Headers): Map<string, string[]> {
  const map = new Map<string, string[]>();
  headers.forEach((value, name) => {
    const values = map.get(name);
    if (values) values.push(value);
    else map.set(name, [value]);
  });
  return map;
}

/** Each cookie gets its own `Set-Cookie` line (never one joined header). */
export function toResponse(response: SessauthResponse): Response {
  const headers = new Headers(response.headers);
  for (const cookie of response.setCookies) headers.append('set-cookie', cookie);
  return new Response(response.body, { status: response.status, headers });
}
