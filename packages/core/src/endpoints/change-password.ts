import { withSecurityEvents } from '../sessions/announce-security-events.js';
import type { Engine } from './engine.js';
import { IntegrationError, SessauthError } from '../errors/sessauth-error.js';
import { clientIpOf } from '../http/client-identity.js';
import { assertJsonContentType, readJsonObject } from '../http/read-json-body.js';
import { emptyResponse, errorToResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { runAuthenticator } from './run-authenticator.js';
import { throttleAccount, throttleClient } from './throttle-request.js';
import type { AuthContext } from '../sessions/authenticate.js';
import { endAllSessions } from '../sessions/end-all-sessions.js';
import { assertFreshForSensitiveAction } from '../sessions/freshness.js';

/** The shortest new password accepted (NIST SP 800-63B's floor); the longest is JWT_MAX_PASSWORD_LENGTH. */
export const MIN_NEW_PASSWORD_LENGTH = 8;

/** Stores the new password (hashing it, and so changing the user's security stamp). */
export type SetPassword<U> = (user: U, newPassword: string) => Promise<void>;

/**
 * A password change for a host route behind the guard: `{"current_password", "new_password"}`.
 * A stolen access token alone cannot change the password: the current one is re-checked
 * through the login's own authenticator, under the login throttle. Order: 415 content type,
 * 429 login throttle, 400 body and new-password length, 429 the per-account budget (when
 * JWT_LOGIN_ACCOUNT_THROTTLE_RATE is on), then 401 `invalid_credentials` for a
 * wrong current password; then `setPassword` and every session of the user ends.
 * Always resolves to a response (200 with an empty body on success).
 */
export async function changePasswordRoute<U>(
  engine: Engine<U>,
  request: SessauthRequest,
  caller: AuthContext<U>,
  setPassword: SetPassword<U>,
): Promise<SessauthResponse> {
  try {
    const { options, users } = engine;
    if (users.usernameOf === undefined) throw new IntegrationError('changePassword needs users.usernameOf(user): the name the user logs in with');
    // JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS: part of the guard, so before any check of the request.
    assertFreshForSensitiveAction(options, caller.session, engine.clock.now());
    assertJsonContentType(request);
    await throttleClient(engine, 'login', clientIpOf(engine, request));
    const body = await readJsonObject(request, options.maxBodyBytes);
    const { current_password: current, new_password: next } = body;
    if (typeof current !== 'string' || typeof next !== 'string') throw new SessauthError('invalid_request');
    if ([...next].length < MIN_NEW_PASSWORD_LENGTH || next.length > options.maxPasswordLength) {
      throw new SessauthError('invalid_request');
    }
    const userId = users.idOf(caller.user);
    const username = users.usernameOf(caller.user);
    await throttleAccount(engine, username);
    const checked = await runAuthenticator(engine, { username, password: current }, request, username);
    if (users.idOf(checked) !== userId) throw new SessauthError('invalid_credentials');
    // CAEP credential-change, held before the change and released after it (transmitter on).
    await withSecurityEvents(
      engine,
      () => [{ event: 'credential-change', userId, initiatingEntity: 'user', at: engine.clock.now() }],
      () => setPassword(caller.user, next),
      () => true,
      { dropWhenChangeThrows: true },
    );
    await endAllSessions(engine, userId, 'invalidate_all');
    return emptyResponse();
  } catch (error) {
    return errorToResponse(error, engine.logger);
  }
}
