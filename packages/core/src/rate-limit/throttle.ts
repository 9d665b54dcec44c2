import { describeStoreFault } from '../errors/describe-store-fault.js';
import { SessauthError } from '../errors/sessauth-error.js';
import type { Logger } from '../log/logger.js';
import type { RateSpec } from '../options/options.js';
import type { RateLimitStore } from '../store/store-port.js';

/**
 * What a budget counts: a client address (`login`, `refresh`), a client network (`login_network`), an account
 * (`login_account`), a host's key (`host`); `dpop_jti` is the replay record of a DPoP proof, `device_bound_challenge` of a DBSC challenge (a count of 1: first seen).
 */
export type ThrottleScope = 'login' | 'refresh' | 'login_network' | 'login_account' | 'host' | 'dpop_jti' | 'device_bound_challenge';

export interface ThrottleInput {
  readonly scope: ThrottleScope;
  /** From `clientRateKey` (or `accountRateKey` for `login_account`). */
  readonly clientKey: string;
  /** Null: throttling disabled for this scope. */
  readonly rate: RateSpec | null;
  readonly now: Date;
  readonly logger: Logger;
}

/**
 * Counts one hit for the client in a fixed window and throws 429 `rate_limited`
 * (with `retryAfter` in whole seconds, at least 1) once the limit is passed. A
 * store that fails or answers nonsense refuses the request with 503
 * `service_unavailable`: never unthrottled (fail closed), and never 429, because an
 * outage is not a rate limit and operators must not go looking at one.
 */
export async function throttle(store: RateLimitStore, input: ThrottleInput): Promise<void> {
  const { rate, now } = input;
  if (rate === null) return;
  const result = await countHit(store, input.scope, `throttle:${input.scope}:${input.clientKey}`, rate, now, input.logger);
  if (result.count <= rate.limit) return;
  const retryAfter = retryAfterSeconds(result.resetAt, now);
  // The bucket kind only, never its key (an address, a network or an account hash). One
  // warning per bucket and window, at its first refusal: a flood of retries must not
  // become a flood of log lines; the later refusals go to debug.
  const fields = { scope: input.scope, limit: rate.limit, window_sec: rate.windowSec, retry_after_sec: retryAfter };
  if (result.count === rate.limit + 1) input.logger.warn('rate_limited', fields);
  else input.logger.debug?.('rate_limited', fields);
  throw new SessauthError('rate_limited', { retryAfter });
}

/**
 * One hit of `key`'s fixed window on the shared store; a store that fails or answers
 * nonsense rejects with 503 `service_unavailable` (logged without the key).
 */
export async function countHit(
  store: RateLimitStore,
  scope: ThrottleScope,
  key: string,
  rate: RateSpec,
  now: Date,
  logger: Logger,
): Promise<{ count: number; resetAt: Date }> {
  try {
    const result = await store.hit(key, rate.windowSec, now);
    if (!Number.isFinite(result.count) || !Number.isFinite(result.resetAt.getTime())) {
      throw new Error('rate limit store returned an invalid counter');
    }
    return result;
  } catch (error) {
    // Neither the key nor the error message: both may contain the client's IP.
    logger.error('rate_limiter_failed', { scope, error: errorName(error), ...describeStoreFault(error) });
    throw new SessauthError('service_unavailable', { cause: error });
  }
}

/** Whole seconds until the window ends, at least 1 (a `Retry-After` value). */
export function retryAfterSeconds(resetAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
