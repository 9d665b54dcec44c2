import type { AuthContext } from '../sessions/authenticate.js';
import type { BearerEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { emptyResponse } from '../http/response.js';
import type { SessauthResponse } from '../http/sessauth-request.js';
import { endAllSessions } from '../sessions/end-all-sessions.js';
import { assertFreshForSensitiveAction } from '../sessions/freshness.js';

/**
 * POST /auth/logout/others/: "sign out my other devices". Expires every active session of the
 * caller but the current one, in one bulk store call (`expireAllForUser` with `exceptSessionId`).
 * The current session and its refresh cookie stay as they are.
 */
export const logoutOthersEndpoint = {
  route: 'logout-others',
  method: 'POST',
  path: '/logout/others',
  auth: 'bearer',
  handle: ({ engine, caller }) => logoutOthers(engine, caller),
} as const satisfies BearerEndpoint;

async function logoutOthers<U>(engine: Engine<U>, caller: AuthContext<U>): Promise<SessauthResponse> {
  const { session } = caller;
  assertFreshForSensitiveAction(engine.options, session, engine.clock.now());
  await endAllSessions(engine, session.userId, 'logout_others', session.id);
  return emptyResponse();
}
