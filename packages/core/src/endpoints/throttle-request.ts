import { accountRateKey } from '../rate-limit/account-rate-key.js';
import { clientRateKey } from '../rate-limit/rate-limit-key.js';
import { throttle } from '../rate-limit/throttle.js';
import type { Engine } from './engine.js';

/**
 * One hit of `scope`'s budget for this client (login's budget also covers the admin
 * sign-in and the password change: each one guesses a password).
 */
export function throttleClient<U>(engine: Engine<U>, scope: 'login' | 'refresh', clientIp: string | null): Promise<void> {
  const { options } = engine;
  return throttle(engine.rateLimitStore, {
    scope,
    clientKey: clientRateKey(clientIp, options.throttleIpv6Prefix),
    rate: scope === 'login' ? options.loginThrottle : options.refreshThrottle,
    now: engine.clock.now(),
    logger: engine.logger,
  });
}

/**
 * One hit of the login's per-account budget (JWT_LOGIN_ACCOUNT_THROTTLE_RATE, off by
 * default), keyed by a keyed hash of the normalised username. Counted before the
 * authenticator looks the user up, for existing and unknown usernames alike, so the
 * answer (429 or not) says nothing about whether the account exists. A body without a
 * string `username` (a custom login flow) has no account to count.
 */
export async function throttleAccount<U>(engine: Engine<U>, username: unknown): Promise<void> {
  const { options } = engine;
  if (options.loginAccountThrottle === null || typeof username !== 'string') return;
  await throttle(engine.rateLimitStore, {
    scope: 'login_account',
    clientKey: await accountRateKey(options, options.securityStampKey, username),
    rate: options.loginAccountThrottle,
    now: engine.clock.now(),
    logger: engine.logger,
  });
}
