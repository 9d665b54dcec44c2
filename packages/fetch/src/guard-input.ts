import type { AuthenticateInput } from '@sessauth/core';
import { pathOf } from './path-of.js';

/** The request facts the guard cannot read from a `Request` itself (see FetchHandlerOptions). */
interface GuardInputOptions {
  getPeerAddress?(request: Request): string | undefined;
  secure?: boolean | ((request: Request) => boolean);
}

/**
 * The guard's input from a standard `Request`: `Authorization`, and for DPoP (JWT_DPOP) the
 * facts that name the request's URI (method, path, `Host`, `X-Forwarded-Proto`, `DPoP`, peer,
 * TLS as `options.secure` says). No body is read and no other header is copied.
 */
export function fetchGuardInput(request: Request, options: GuardInputOptions = {}): AuthenticateInput {
  const headers = new Map<string, string[]>();
  for (const name of ['host', 'dpop', 'x-forwarded-proto']) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, [value]);
  }
  // A runtime that keeps no Host header still has the URL's authority.
  if (!headers.has('host')) headers.set('host', [new URL(request.url).host]);
  const { getPeerAddress, secure } = options;
  const authorization = request.headers.get('authorization');
  return {
    authorization: authorization === null ? undefined : [authorization],
    request: {
      method: request.method,
      path: pathOf(request.url),
      headers,
      peerAddress: getPeerAddress?.(request) ?? null,
      secure: typeof secure === 'function' ? secure(request) : (secure ?? request.url.startsWith('https:')),
    },
  };
}
