import type { Engine } from './engine.js';
import { jsonResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { authenticateRequest } from '../sessions/authenticate.js';
import { listUserSessions } from '../sessions/list-user-sessions.js';
import { toPublicSession } from './public-session.js';

/** GET /auth/sessions/: the caller's active sessions (idle ones left out), newest first, "this device" marked. */
export async function listSessionsRoute<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const { session } = await authenticateRequest(engine, request);
  const sessions = await listUserSessions(engine, session.userId);
  return jsonResponse(
    200,
    sessions.map((s) => toPublicSession(s, session.id)),
  );
}
