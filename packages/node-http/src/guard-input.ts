import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AuthenticateInput, Sessauth } from '@sessauth/core';
import { authorizationValues } from './authorization-values.js';
import { headersFromRawList } from './headers-from-raw-list.js';

/**
 * What the guard reads of a Node request: the `Authorization` values, and, only with the
 * access-token cookie on (JWT_ACCESS_TOKEN_COOKIE), the rest of the request for its cookie and
 * CSRF check. Off, the hot path builds nothing more than before.
 */
export function guardInput(auth: Pick<Sessauth<unknown>, 'options'>, req: IncomingMessage): AuthenticateInput {
  const authorization = authorizationValues(req);
  if (!auth.options.accessTokenCookie || authorization !== undefined) return { authorization };
  return {
    authorization,
    request: {
      method: req.method ?? 'GET',
      headers: headersFromRawList(req.rawHeaders),
      peerAddress: req.socket.remoteAddress ?? null,
      secure: (req.socket as TLSSocket).encrypted === true,
    },
  };
}
