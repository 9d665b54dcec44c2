import type { Engine } from '../engine.js';
import { emitRevoke } from '../events/emit-session-events.js';
import { clearRefreshCookie, usesRefreshCookie } from '../http/auth-cookies.js';
import { emptyResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { authenticate } from '../session/authenticate.js';
import { authorizationOf } from './authorization-of.js';

/** POST /auth/logout/all/: expire every active session of the caller in one bulk update. */
export async function logoutAllRoute<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const { session } = await authenticate(engine, authorizationOf(request));
  const count = await engine.store.expireAllForUser(session.userId, engine.clock.now());
  emitRevoke(engine, session.userId, null, count, 'logout_all');
  return emptyResponse(usesRefreshCookie(engine.options) ? { setCookies: [clearRefreshCookie(engine.options)] } : {});
}
