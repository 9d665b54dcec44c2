import type { AuthContext } from '../sessions/authenticate.js';
import type { BearerEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { assertJsonContentType, readJsonObject } from '../http/read-json-body.js';
import { jsonResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { isSessionIdShape } from '../sessions/revoke-session.js';
import { isActive, isIdle } from '../sessions/session-state.js';
import { sessionNameOf } from '../sessions/session-name.js';
import { toPublicSessions } from './public-session.js';
import { recordRenamed } from '../sessions/session-activity.js';

/**
 * PATCH /auth/sessions/{id}/ `{"name": "Work laptop"}`: names one of the caller's own active
 * sessions and answers 200 with its row as `GET /auth/sessions/` shows it. Order: 401 (the
 * guard, as DELETE), 415 unless JSON, 413/400 body, 400 name, then 404 `session_not_found`
 * for another user's, an ended, an unknown or a malformed id alike (never sent to the store).
 * Bearer-authenticated like DELETE: cookies are not read, so no CSRF check applies.
 */
export const renameSessionEndpoint = {
  route: 'rename-session',
  method: 'PATCH',
  path: '/sessions/{id}',
  auth: 'bearer',
  handle: ({ engine, request, caller, sessionId }) => renameSession(engine, request, caller, sessionId),
} as const satisfies BearerEndpoint;

async function renameSession<U>(engine: Engine<U>, request: SessauthRequest, caller: AuthContext<U>, sessionId: string): Promise<SessauthResponse> {
  const { session } = caller;
  assertJsonContentType(request);
  const name = sessionNameOf(await readJsonObject(request, engine.options.maxBodyBytes));
  const now = engine.clock.now();
  // Read first so an idle session (over for the guard and the list) is not renamed; the
  // store's own check then settles a revocation racing with this request.
  const target = isSessionIdShape(sessionId) ? await engine.store.findSession(sessionId) : null;
  const renameable =
    target !== null && target.userId === session.userId && isActive(target, now) && !isIdle(target, now, engine.options.sessionIdleSeconds);
  if (!renameable || !(await engine.store.renameSession(sessionId, session.userId, name, now))) {
    throw new SessauthError('session_not_found', { status: 404 });
  }
  await recordRenamed(engine, target, name);
  // The row as the list shows it (with the last client when the activity history is on).
  const [row] = await toPublicSessions(engine, [{ ...target, name }], session.id);
  return jsonResponse(200, row);
}
