import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AuthenticateInput, Sessauth } from '@sessauth/core';
import { authorizationValues } from './authorization-values.js';
import { headersFromRawList } from './headers-from-raw-list.js';

/**
 * What the guard reads of a Node request: the `Authorization` values, and, only when a setting
 * needs more, the request itself: the access-token cookie (JWT_ACCESS_TOKEN_COOKIE, when no
 * `Authorization` header came) for its cookie and CSRF check, DPoP (JWT_DPOP) for the proof's
 * method and URI. `originalUrl` is the full path the client sent (Express's `req.originalUrl`,
 * Koa's `ctx.originalUrl`, under any mount). With both settings off the hot path builds nothing
 * more than the `Authorization` values.
 */
export function guardInput(auth: Pick<Sessauth<unknown>, 'options'>, req: IncomingMessage, originalUrl?: string): AuthenticateInput {
  const authorization = authorizationValues(req);
  const { dpop, accessTokenCookie } = auth.options;
  if (dpop === 'off' && (!accessTokenCookie || authorization !== undefined)) return { authorization };
  return {
    authorization,
    request: {
      method: req.method ?? 'GET',
      path: originalUrl ?? req.url ?? '/',
      headers: headersFromRawList(req.rawHeaders),
      peerAddress: req.socket.remoteAddress ?? null,
      secure: (req.socket as TLSSocket).encrypted === true,
    },
  };
}
