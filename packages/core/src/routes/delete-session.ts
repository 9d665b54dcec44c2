import type { Engine } from '../engine.js';
import { emitRevoke } from '../events/emit-session-events.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { clearRefreshCookie, usesRefreshCookie } from '../http/auth-cookies.js';
import { emptyResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { authenticate } from '../session/authenticate.js';
import { authorizationOf } from './authorization-of.js';

// The shape of every id the core mints (base64url); anything else cannot be a session.
const SESSION_ID_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * DELETE /auth/sessions/{id}/: revoke one of the caller's own active sessions.
 * Another user's, an expired, an unknown and a malformed id (over-long, percent-encoded,
 * odd characters: never sent to the store) all answer the same 404, always after
 * authentication. Revoking the current session is a logout, cookie clearing included.
 */
export async function deleteSessionRoute<U>(engine: Engine<U>, request: SessauthRequest, sessionId: string): Promise<SessauthResponse> {
  const { session } = await authenticate(engine, authorizationOf(request));
  const revoked = SESSION_ID_SHAPE.test(sessionId) && (await engine.store.expireSession(sessionId, session.userId, engine.clock.now()));
  if (!revoked) throw new SessauthError('session_not_found', { status: 404 });
  emitRevoke(engine, session.userId, sessionId, 1, 'delete');
  const clearsCookie = sessionId === session.id && usesRefreshCookie(engine.options);
  return emptyResponse(clearsCookie ? { setCookies: [clearRefreshCookie(engine.options)] } : {});
}
