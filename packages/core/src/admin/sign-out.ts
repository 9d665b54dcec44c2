import type { Engine } from '../endpoints/engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { isSecureRequest } from '../http/client-identity.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { authenticateAdminCookie } from './access.js';
import { clearAdminCookie } from './cookie.js';
import { assertAdminCsrf, readFormFields } from './form.js';
import { seeOther } from './html/layout.js';
import { withSecurityEvents } from '../sessions/announce-security-events.js';

/**
 * POST <adminPrefix>/sign-out/ (form with the CSRF field): ends the one session
 * the admin cookie names and drops the cookie. It touches nothing else: the
 * listing itself stays read-only. A cookie whose token already ended is just
 * dropped (its session can no longer be used: its refresh token was never sent).
 */
export async function adminSignOutRoute<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const fields = await readFormFields(request, engine.options.maxBodyBytes);
  assertAdminCsrf(engine, request, fields);
  try {
    const { session } = await authenticateAdminCookie(engine, request);
    const now = engine.clock.now();
    await withSecurityEvents(
      engine,
      () => [{ event: 'session-revoked', userId: session.userId, sessionId: session.id, reason: 'logout', initiatingEntity: 'user', at: now }],
      () => engine.store.expireSession(session.id, session.userId, now),
      (ended) => ended,
    );
  } catch (error) {
    // Only "no usable token" is fine here; a store fault must surface (503).
    if (!(error instanceof SessauthError) || error.status !== 401) throw error;
  }
  const secure = isSecureRequest(engine, request);
  return seeOther(`${engine.options.adminPrefix}/`, [clearAdminCookie(engine.options, secure)]);
}
