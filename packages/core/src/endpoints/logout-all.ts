import type { Engine } from './engine.js';
import { clearRefreshCookie, usesRefreshCookie } from '../http/auth-cookies.js';
import { emptyResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { authenticateRequest } from '../sessions/authenticate.js';
import { endAllSessions } from '../sessions/end-all-sessions.js';

/** POST /auth/logout/all/: expire every active session of the caller in one bulk update. */
export async function logoutAllRoute<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const { session } = await authenticateRequest(engine, request);
  await endAllSessions(engine, session.userId, 'logout_all');
  return emptyResponse(usesRefreshCookie(engine.options) ? { setCookies: [clearRefreshCookie(engine.options)] } : {});
}
