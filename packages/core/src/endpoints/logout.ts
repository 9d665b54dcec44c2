import type { AuthContext } from '../sessions/authenticate.js';
import type { BearerEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { clearSessionCookies, usesRefreshCookie } from '../http/auth-cookies.js';
import { emptyResponse } from '../http/response.js';
import type { SessauthResponse } from '../http/sessauth-request.js';
import { revokeSession } from '../sessions/revoke-session.js';

/** POST /auth/logout/: expire the caller's current session. */
export const logoutEndpoint = {
  route: 'logout',
  method: 'POST',
  path: '/logout',
  auth: 'bearer',
  handle: ({ engine, caller }) => logout(engine, caller),
} as const satisfies BearerEndpoint;

async function logout<U>(engine: Engine<U>, caller: AuthContext<U>): Promise<SessauthResponse> {
  const { session } = caller;
  await revokeSession(engine, session.userId, session.id, 'logout');
  return emptyResponse(usesRefreshCookie(engine.options) ? { setCookies: clearSessionCookies(engine.options) } : {});
}
