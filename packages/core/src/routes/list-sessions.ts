import type { Engine } from '../engine.js';
import { jsonResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { authenticate } from '../session/authenticate.js';
import { isIdle } from '../session/session-state.js';
import { toPublicSession } from '../session/to-public-session.js';
import { authorizationOf } from './authorization-of.js';

/** GET /auth/sessions/: the caller's active sessions (idle ones left out), newest first, "this device" marked. */
export async function listSessionsRoute<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const { session } = await authenticate(engine, authorizationOf(request));
  const now = engine.clock.now();
  const sessions = (await engine.store.listActiveSessions(session.userId, now)).filter((s) => !isIdle(s, now, engine.options.sessionIdleSeconds));
  return jsonResponse(200, sessions.map((s) => toPublicSession(s, session.id)));
}
