import type { SessauthError } from '../errors/sessauth-error.js';
import { accountRateKey } from '../rate-limit/account-rate-key.js';
import type { Engine } from './engine.js';

// The count behind the `failed_logins_then_success` signal (JWT_RISK_SIGNALS): a fixed window
// per account in the rate-limit store, keyed like the per-account budget (a keyed hash of the
// normalised username, never the name). Best effort both ways: a signal must never fail or
// slow down a login, so a store fault skips the count (logged without the key).

const SCOPE = 'risk:failed_login';

/** A failed login at this username: one hit of its window. */
export async function countFailedLogin<U>(engine: Engine<U>, error: SessauthError, username: unknown): Promise<void> {
  if (!engine.options.riskSignals || typeof username !== 'string') return;
  // A refused request (throttled, malformed) is not a password guess at the account.
  if (error.code !== 'invalid_credentials' && error.code !== 'invalid_user') return;
  await hit(engine, username);
}

/**
 * At a successful login: the attempts at this username within the window before this one
 * (failed ones, and earlier successes in the same window); null when not counted.
 */
export async function attemptsBeforeSuccess<U>(engine: Engine<U>, username: unknown): Promise<number | null> {
  if (!engine.options.riskSignals || typeof username !== 'string') return null;
  const count = await hit(engine, username);
  return count === null ? null : count - 1;
}

async function hit<U>(engine: Engine<U>, username: string): Promise<number | null> {
  const { options } = engine;
  try {
    const key = await accountRateKey(options, options.securityStampKey, username);
    const result = await engine.rateLimitStore.hit(`${SCOPE}:${key}`, options.riskFailedLoginWindowSeconds, engine.clock.now());
    return Number.isSafeInteger(result.count) && result.count >= 1 ? result.count : null;
  } catch (error) {
    engine.logger.warn('risk_count_failed', { error: error instanceof Error ? error.name : 'unknown' });
    return null;
  }
}
