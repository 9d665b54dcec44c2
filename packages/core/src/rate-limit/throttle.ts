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
  const { rate } = input;
  if (rate === null) return;
  refuseOver(input, rate, await countHit(store, input.scope, keyOf(input), rate, input.now, input.logger));
}

/**
 * Several budgets, in order, as `throttle` one after another would count them (a refusal spends
 * nothing of the budgets after it), in one round trip when the store has `hitMany`.
 */
export async function throttleAll(store: RateLimitStore, inputs: readonly ThrottleInput[]): Promise<void> {
  const counted = inputs.filter((input): input is ThrottleInput & { rate: RateSpec } => input.rate !== null);
  const first = counted[0];
  if (counted.length < 2 || store.hitMany === undefined || first === undefined) {
    for (const input of counted) await throttle(store, input);
    return;
  }
  const hits = counted.map((input) => ({ key: keyOf(input), windowSec: input.rate.windowSec, limit: input.rate.limit }));
  let results: Array<{ count: number; resetAt: Date }>;
  try {
    results = await store.hitMany(hits, first.now);
    const refused = results.findIndex((result, index) => result.count > (hits[index]?.limit ?? 0));
    // One result per hit, or fewer ending at the refused one, and nothing after a refusal.
    const stops = refused === -1 ? results.length === hits.length : refused === results.length - 1;
    if (!stops || results.length > hits.length || !results.every(validCounter)) {
      throw new Error('rate limit store returned an invalid counter');
    }
  } catch (error) {
    first.logger.error('rate_limiter_failed', { scope: first.scope, error: errorName(error), ...describeStoreFault(error) });
    throw new SessauthError('service_unavailable', { cause: error });
  }
  results.forEach((result, index) => {
    const input = counted[index];
    if (input !== undefined) refuseOver(input, input.rate, result);
  });
}

function keyOf(input: ThrottleInput): string {
  return `throttle:${input.scope}:${input.clientKey}`;
}

function validCounter(result: { count: number; resetAt: Date }): boolean {
  return Number.isFinite(result.count) && result.resetAt instanceof Date && Number.isFinite(result.resetAt.getTime());
}

/** Throws 429 `rate_limited` when the count is past the budget's limit. */
function refuseOver(input: ThrottleInput, rate: RateSpec, result: { count: number; resetAt: Date }): void {
  const { now } = input;
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
