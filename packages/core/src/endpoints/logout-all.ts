import type { AuthContext } from '../sessions/authenticate.js';
import type { BearerEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { clearSessionCookies, usesRefreshCookie } from '../http/auth-cookies.js';
import { emptyResponse } from '../http/response.js';
import type { SessauthResponse } from '../http/sessauth-request.js';
import { endAllSessions } from '../sessions/end-all-sessions.js';
import { assertFreshForSensitiveAction } from '../sessions/freshness.js';

/** POST /auth/logout/all/: expire every active session of the caller in one bulk update. */
export const logoutAllEndpoint = {
  route: 'logout-all',
  method: 'POST',
  path: '/logout/all',
  auth: 'bearer',
  handle: ({ engine, caller }) => logoutAll(engine, caller),
} as const satisfies BearerEndpoint;

async function logoutAll<U>(engine: Engine<U>, caller: AuthContext<U>): Promise<SessauthResponse> {
  const { session } = caller;
  assertFreshForSensitiveAction(engine.options, session, engine.clock.now());
  await endAllSessions(engine, session.userId, 'logout_all');
  return emptyResponse(usesRefreshCookie(engine.options) ? { setCookies: clearSessionCookies(engine.options) } : {});
}
