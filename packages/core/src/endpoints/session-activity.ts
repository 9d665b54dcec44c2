import type { AuthContext } from '../sessions/authenticate.js';
import type { BearerEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { jsonResponse } from '../http/response.js';
import type { SessauthResponse } from '../http/sessauth-request.js';
import { isSessionIdShape } from '../sessions/revoke-session.js';
import { readActivity } from '../sessions/session-activity.js';
import { isActive, isIdle } from '../sessions/session-state.js';
import { toPublicActivity } from './public-activity.js';

/**
 * GET /auth/sessions/{id}/activity/: the activity history of one of the caller's own active
 * sessions (JWT_SESSION_ACTIVITY), oldest first. Another user's, an ended, an unknown and a
 * malformed id all answer the same 404 `session_not_found` after authentication, as DELETE
 * does. Without JWT_SESSION_ACTIVITY the path is a 404 `not_found`, like a path that is not ours.
 */
export const sessionActivityEndpoint = {
  route: 'session-activity',
  method: 'GET',
  path: '/sessions/{id}/activity',
  auth: 'bearer',
  available: (engine) => engine.options.sessionActivity && typeof engine.store.listActivity === 'function',
  handle: ({ engine, caller, sessionId }) => sessionActivity(engine, caller, sessionId),
} as const satisfies BearerEndpoint;

async function sessionActivity<U>(engine: Engine<U>, caller: AuthContext<U>, sessionId: string): Promise<SessauthResponse> {
  const { session } = caller;
  const now = engine.clock.now();
  const target = isSessionIdShape(sessionId) ? await engine.store.findSession(sessionId) : null;
  const visible =
    target !== null && target.userId === session.userId && isActive(target, now) && !isIdle(target, now, engine.options.sessionIdleSeconds);
  if (!visible) throw new SessauthError('session_not_found', { status: 404 });
  const history = (await readActivity(engine, session.userId, [sessionId])).get(sessionId) ?? [];
  return jsonResponse(200, history.map(toPublicActivity));
}
