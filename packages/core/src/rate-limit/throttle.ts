import { SessauthError } from '../errors/sessauth-error.js';
import type { Logger } from '../logger.js';
import type { RateSpec } from '../options/options.js';
import type { RateLimitStore } from '../store/store-port.js';

export interface ThrottleInput {
  readonly scope: 'login' | 'refresh';
  /** From `clientRateKey`. */
  readonly clientKey: string;
  /** Null: throttling disabled for this scope. */
  readonly rate: RateSpec | null;
  readonly now: Date;
  readonly logger: Logger;
}

/**
 * Counts one hit for the client in a fixed window and throws 429 `rate_limited`
 * (with `retryAfter` in whole seconds, at least 1) once the limit is passed. A
 * store that fails or answers nonsense also gives 429: an unthrottled login
 * endpoint is worse than a briefly refused one (fail closed).
 */
export async function throttle(store: RateLimitStore, input: ThrottleInput): Promise<void> {
  const { rate, now } = input;
  if (rate === null) return;
  let result: { count: number; resetAt: Date };
  try {
    result = await store.hit(`throttle:${input.scope}:${input.clientKey}`, rate.windowSec, now);
    if (!Number.isFinite(result.count) || !Number.isFinite(result.resetAt.getTime())) {
      throw new Error('rate limit store returned an invalid counter');
    }
  } catch (error) {
    // Neither the key nor the error message: both may contain the client's IP.
    input.logger.error('rate_limiter_failed', { scope: input.scope, error: errorName(error) });
    throw new SessauthError('rate_limited', { retryAfter: 1, cause: error });
  }
  if (result.count > rate.limit) {
    const seconds = Math.ceil((result.resetAt.getTime() - now.getTime()) / 1000);
    throw new SessauthError('rate_limited', { retryAfter: Math.max(1, seconds) });
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
