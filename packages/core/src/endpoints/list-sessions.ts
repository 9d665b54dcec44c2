import type { AuthContext } from '../sessions/authenticate.js';
import type { BearerEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { jsonResponse } from '../http/response.js';
import type { SessauthResponse } from '../http/sessauth-request.js';
import { listUserSessions } from '../sessions/list-user-sessions.js';
import { toPublicSessions } from './public-session.js';

/** GET /auth/sessions/: the caller's active sessions (idle ones left out), newest first, "this device" marked. */
export const listSessionsEndpoint = {
  route: 'list-sessions',
  method: 'GET',
  path: '/sessions',
  auth: 'bearer',
  handle: ({ engine, caller }) => listSessions(engine, caller),
} as const satisfies BearerEndpoint;

async function listSessions<U>(engine: Engine<U>, caller: AuthContext<U>): Promise<SessauthResponse> {
  const { session } = caller;
  const sessions = await listUserSessions(engine, session.userId);
  return jsonResponse(200, await toPublicSessions(engine, sessions, session.id));
}
