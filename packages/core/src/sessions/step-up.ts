import { recordSteppedUp } from './session-activity.js';
import { IntegrationError, SessauthError } from '../errors/sessauth-error.js';
import type { SessionRecord } from '../store/store-port.js';
import { emitStepUp } from './emit-session-events.js';
import type { SessionServices } from './session-services.js';
import { isActive } from './session-state.js';
import { accessRemember } from './create-session.js';

/** How the user proved who they are (RFC 8176 `amr` values, an optional `acr`). */
export interface AuthenticationFacts {
  readonly amr?: readonly string[];
  readonly acr?: string | null;
}

// At most 8 values of 32 characters: their JSON (under 300 characters) fits every store's column.
const AMR_VALUE = /^[A-Za-z0-9_.:-]{1,32}$/;
const MAX_AMR_VALUES = 8;
const ACR_VALUE = /^[\x21\x23-\x5b\x5d-\x7e]{1,255}$/;

/** The facts a host passed, checked (a programmer error throws an `IntegrationError`); amr defaults to `fallbackAmr`. */
export function checkAuthenticationFacts(
  method: string,
  facts: AuthenticationFacts,
  fallbackAmr: readonly string[],
): { amr: readonly string[]; acr: string | null } {
  const amr = facts.amr ?? fallbackAmr;
  if (!Array.isArray(amr) || amr.length > MAX_AMR_VALUES || !amr.every((value) => typeof value === 'string' && AMR_VALUE.test(value))) {
    throw new IntegrationError(
      `${method}: amr must be a list of at most 8 method names of 1..32 letters, digits or _.:- (RFC 8176: 'pwd', 'otp', 'hwk'...)`,
    );
  }
  const acr = facts.acr ?? null;
  if (acr !== null && (typeof acr !== 'string' || !ACR_VALUE.test(acr))) {
    throw new IntegrationError(`${method}: acr must be printable ASCII without spaces, quotes or backslashes (1..255 characters)`);
  }
  return { amr: [...amr], acr };
}

/**
 * A fresh proof of identity on an existing session: the store raises `authTime` and replaces
 * `amr`/`acr` in one atomic write, the `step_up` event fires, and the answer is a new access
 * token carrying `auth_time` (and `acr`). No new session, no new refresh token: the refresh
 * rotation goes on as before and keeps the new `authTime`.
 */
export async function stepUpSession<U>(
  services: SessionServices<U>,
  session: SessionRecord,
  facts: { amr: readonly string[]; acr: string | null },
  /** The session's "remember" (false: said by the caller's access token), kept in the new token. */
  remember = true,
): Promise<string> {
  const { store, clock } = services;
  if (typeof store.recordStepUp !== 'function') throw new IntegrationError('step-up needs a store with recordStepUp');
  const now = clock.now();
  if (!isActive(session, now)) throw new SessauthError('session_expired');
  const [recorded, accessToken] = await Promise.all([
    store.recordStepUp({ sessionId: session.id, userId: session.userId, authTime: now, amr: facts.amr, acr: facts.acr, now }),
    services.tokens.mintAccess({
      userId: session.userId,
      sessionId: session.id,
      notAfter: session.expiresAt,
      freshness: { authTime: now, acr: facts.acr },
      // A DPoP-bound session's tokens stay bound (RFC 9449 s6).
      ...((session.dpopJkt ?? null) === null ? {} : { jkt: session.dpopJkt as string }),
      ...accessRemember(services.options, remember),
    }),
  ]);
  if (!recorded) throw new SessauthError('session_expired');
  emitStepUp(services, session.userId, session.id, facts);
  await recordSteppedUp(services, session, facts.amr);
  return accessToken;
}
