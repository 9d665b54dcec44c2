import type { Engine } from './engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { clearRefreshCookie, usesRefreshCookie } from '../http/auth-cookies.js';
import { emptyResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { authenticateRequest } from '../sessions/authenticate.js';
import { revokeSession } from '../sessions/revoke-session.js';

/**
 * DELETE /auth/sessions/{id}/: revoke one of the caller's own active sessions.
 * Another user's, an expired, an unknown and a malformed id (over-long, percent-encoded,
 * odd characters: never sent to the store) all answer the same 404, always after
 * authentication. Revoking the current session is a logout, cookie clearing included.
 */
export async function deleteSessionRoute<U>(engine: Engine<U>, request: SessauthRequest, sessionId: string): Promise<SessauthResponse> {
  const { session } = await authenticateRequest(engine, request);
  if (!(await revokeSession(engine, session.userId, sessionId, 'delete'))) throw new SessauthError('session_not_found', { status: 404 });
  const clearsCookie = sessionId === session.id && usesRefreshCookie(engine.options);
  return emptyResponse(clearsCookie ? { setCookies: [clearRefreshCookie(engine.options)] } : {});
}
