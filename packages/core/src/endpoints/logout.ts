import type { Engine } from './engine.js';
import { clearRefreshCookie, usesRefreshCookie } from '../http/auth-cookies.js';
import { emptyResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { authenticateRequest } from '../sessions/authenticate.js';
import { revokeSession } from '../sessions/revoke-session.js';

/** POST /auth/logout/: expire the caller's current session. */
export async function logoutRoute<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const { session } = await authenticateRequest(engine, request);
  await revokeSession(engine, session.userId, session.id, 'logout');
  return emptyResponse(usesRefreshCookie(engine.options) ? { setCookies: [clearRefreshCookie(engine.options)] } : {});
}
