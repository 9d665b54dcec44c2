import { accountRateKey, resolvedAccountRateKey } from '../rate-limit/account-rate-key.js';
import { clientRateKey, networkRateKey } from '../rate-limit/rate-limit-key.js';
import { throttle } from '../rate-limit/throttle.js';
import type { Engine } from './engine.js';

/**
 * One hit of `scope`'s budget for this client (login's budget also covers the admin
 * sign-in and the password change: each one guesses a password), then, for a login, one
 * of its network's budget (JWT_LOGIN_NETWORK_THROTTLE_RATE, off by default). A refusal
 * of the first spends nothing of the second.
 */
export async function throttleClient<U>(engine: Engine<U>, scope: 'login' | 'refresh', clientIp: string | null): Promise<void> {
  const { options } = engine;
  await throttle(engine.rateLimitStore, {
    scope,
    clientKey: clientRateKey(clientIp, options.throttleIpv6Prefix),
    rate: scope === 'login' ? options.loginThrottle : options.refreshThrottle,
    now: engine.clock.now(),
    logger: engine.logger,
  });
  if (scope !== 'login' || options.loginNetworkThrottle === null) return;
  await throttle(engine.rateLimitStore, {
    scope: 'login_network',
    clientKey: networkRateKey(clientIp, options.throttleNetworkIpv4Prefix, options.throttleNetworkIpv6Prefix),
    rate: options.loginNetworkThrottle,
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

/**
 * The second hit of a login's per-account budget, once the authenticator's lookup resolved
 * the name (`context.accountAttempt`): under the user's id, so spellings the host's lookup
 * folds together (`álice` under an accent-insensitive collation) share alice's budget. An
 * unknown name spends a second hit under its own key, so both cost the same and the 429 reads
 * the same. Off with the per-account budget.
 */
export async function throttleResolvedAccount<U>(engine: Engine<U>, username: unknown, userId: string | null): Promise<void> {
  const { options } = engine;
  if (options.loginAccountThrottle === null) return;
  const name = typeof username === 'string' ? username : '';
  const clientKey =
    userId === null
      ? `unresolved.${await accountRateKey(options, options.securityStampKey, name)}`
      : await resolvedAccountRateKey(options, options.securityStampKey, userId);
  await throttle(engine.rateLimitStore, {
    scope: 'login_account',
    clientKey,
    rate: options.loginAccountThrottle,
    now: engine.clock.now(),
    logger: engine.logger,
  });
}
