import type { Engine } from '../engine.js';
import { describeStoreFault } from '../errors/describe-store-fault.js';
import { SessauthError } from '../errors/sessauth-error.js';
import type { Logger } from '../logger.js';
import type { RateSpec } from '../options/options.js';
import type { RateLimitStore } from '../store/store-port.js';
import { clientRateKey } from './rate-limit-key.js';

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
 * Counts one hit for the client in a fixed window and throws 429 `rate_limited`
 * (with `retryAfter` in whole seconds, at least 1) once the limit is passed. A
 * store that fails or answers nonsense refuses the request with 503
 * `service_unavailable`: never unthrottled (fail closed), and never 429, because an
 * outage is not a rate limit and operators must not go looking at one.
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
    input.logger.error('rate_limiter_failed', { scope: input.scope, error: errorName(error), ...describeStoreFault(error) });
    throw new SessauthError('service_unavailable', { cause: error });
  }
  if (result.count > rate.limit) {
    const seconds = Math.ceil((result.resetAt.getTime() - now.getTime()) / 1000);
    throw new SessauthError('rate_limited', { retryAfter: Math.max(1, seconds) });
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
