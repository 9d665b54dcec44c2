import type { AuthContext } from '../sessions/authenticate.js';
import type { BearerEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { clearSessionCookies, usesRefreshCookie } from '../http/auth-cookies.js';
import { emptyResponse } from '../http/response.js';
import type { SessauthResponse } from '../http/sessauth-request.js';
import { revokeSession } from '../sessions/revoke-session.js';

/**
 * DELETE /auth/sessions/{id}/: revoke one of the caller's own active sessions.
 * Another user's, an expired, an unknown and a malformed id (over-long, percent-encoded,
 * odd characters: never sent to the store) all answer the same 404, always after
 * authentication. Revoking the current session is a logout, cookie clearing included.
 */
export const deleteSessionEndpoint = {
  route: 'delete-session',
  method: 'DELETE',
  path: '/sessions/{id}',
  auth: 'bearer',
  handle: ({ engine, caller, sessionId }) => deleteSession(engine, caller, sessionId),
} as const satisfies BearerEndpoint;

async function deleteSession<U>(engine: Engine<U>, caller: AuthContext<U>, sessionId: string): Promise<SessauthResponse> {
  const { session } = caller;
  if (!(await revokeSession(engine, session.userId, sessionId, 'delete'))) throw new SessauthError('session_not_found', { status: 404 });
  const clearsCookie = sessionId === session.id && usesRefreshCookie(engine.options);
  return emptyResponse(clearsCookie ? { setCookies: clearSessionCookies(engine.options) } : {});
}
