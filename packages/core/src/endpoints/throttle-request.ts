import { accountRateKey, resolvedAccountRateKey } from '../rate-limit/account-rate-key.js';
import { clientRateKey, networkRateKey } from '../rate-limit/rate-limit-key.js';
import { throttle, throttleAll, type ThrottleInput } from '../rate-limit/throttle.js';
import type { Engine } from './engine.js';

/**
 * One hit of `scope`'s budget for this client (login's budget also covers the admin
 * sign-in and the password change: each one guesses a password), then, for a login, one
 * of its network's budget (JWT_LOGIN_NETWORK_THROTTLE_RATE, off by default), then the
 * `later` budgets (a login's per-account one). A refusal of one spends nothing of the next;
 * all of them go to the store in one round trip when it has `hitMany`.
 */
export async function throttleClient<U>(
  engine: Engine<U>,
  scope: 'login' | 'refresh',
  clientIp: string | null,
  later: readonly ThrottleInput[] = [],
): Promise<void> {
  const { options } = engine;
  const budgets: ThrottleInput[] = [
    {
      scope,
      clientKey: clientRateKey(clientIp, options.throttleIpv6Prefix),
      rate: scope === 'login' ? options.loginThrottle : options.refreshThrottle,
      now: engine.clock.now(),
      logger: engine.logger,
    },
  ];
  if (scope === 'login' && options.loginNetworkThrottle !== null) {
    budgets.push({
      scope: 'login_network',
      clientKey: networkRateKey(clientIp, options.throttleNetworkIpv4Prefix, options.throttleNetworkIpv6Prefix),
      rate: options.loginNetworkThrottle,
      now: engine.clock.now(),
      logger: engine.logger,
    });
  }
  await throttleAll(engine.rateLimitStore, [...budgets, ...later]);
}

/**
 * The login's per-account budget (JWT_LOGIN_ACCOUNT_THROTTLE_RATE) for `username`, to count
 * with the address's in `throttleClient`; none when it is off or there is no string username.
 */
export async function accountBudget<U>(engine: Engine<U>, username: unknown): Promise<ThrottleInput[]> {
  const { options } = engine;
  if (options.loginAccountThrottle === null || typeof username !== 'string') return [];
  return [
    {
      scope: 'login_account',
      clientKey: await accountRateKey(options, options.securityStampKey, username),
      rate: options.loginAccountThrottle,
      now: engine.clock.now(),
      logger: engine.logger,
    },
  ];
}

/**
 * One hit of the login's per-account budget (JWT_LOGIN_ACCOUNT_THROTTLE_RATE, off by
 * default), keyed by a keyed hash of the normalised username. Counted before the
 * authenticator looks the user up, for existing and unknown usernames alike, so the
 * answer (429 or not) says nothing about whether the account exists. A body without a
 * string `username` (a custom login flow) has no account to count.
 */
export async function throttleAccount<U>(engine: Engine<U>, username: unknown): Promise<void> {
  for (const budget of await accountBudget(engine, username)) await throttle(engine.rateLimitStore, budget);
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
