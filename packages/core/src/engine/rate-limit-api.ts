import type { Engine } from '../endpoints/engine.js';
import { IntegrationError, SettingsError } from '../errors/sessauth-error.js';
import type { RateSpec } from '../options/options.js';
import { parseRate } from '../options/parse-rate.js';
import { countHit, retryAfterSeconds } from '../rate-limit/throttle.js';

/** The longest key `auth.rateLimit` takes (the SQL and Redis limiters store a digest of it anyway). */
export const MAX_RATE_LIMIT_KEY_LENGTH = 1024;

/** The answer of one `auth.rateLimit` hit. */
export interface RateLimitResult {
  /** False once this hit went over the limit of the current window. */
  readonly allowed: boolean;
  /** Hits allowed per window (`Infinity` for rate `"0"`). */
  readonly limit: number;
  /** Hits left in the current window after this one (0 when not allowed; `Infinity` for rate `"0"`). */
  readonly remaining: number;
  /** When the current window ends (now for rate `"0"`). */
  readonly resetAt: Date;
  /** Whole seconds to send as `Retry-After` when not allowed (at least 1); 0 when allowed. */
  readonly retryAfter: number;
}

/**
 * One hit of a host-defined budget on the engine's shared rate-limit store (the one the
 * login throttle uses), in a fixed window. `key` names the budget (`'otp:' + userId`); it
 * lives in its own namespace, so no host key can spend or reset a login budget. `rate` is
 * parsed like JWT_LOGIN_THROTTLE_RATE (`"5/min"`, `"100/hour"`; `"0"` never limits and
 * touches no store); a malformed rate or key throws an `IntegrationError`. A store fault
 * rejects with `SessauthError('service_unavailable')` (503): fail closed, like the login limiter.
 */
export async function rateLimit<U>(engine: Engine<U>, key: string, rate: string): Promise<RateLimitResult> {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_RATE_LIMIT_KEY_LENGTH) {
    throw new IntegrationError(`rateLimit: key must be a string of 1 to ${MAX_RATE_LIMIT_KEY_LENGTH} characters`);
  }
  const spec = rateSpecOf(rate);
  const now = engine.clock.now();
  if (spec === null) return { allowed: true, limit: Infinity, remaining: Infinity, resetAt: now, retryAfter: 0 };
  const { count, resetAt } = await countHit(engine.rateLimitStore, 'host', `host:${key}`, spec, now, engine.logger);
  const allowed = count <= spec.limit;
  return {
    allowed,
    limit: spec.limit,
    remaining: Math.max(0, spec.limit - count),
    resetAt,
    retryAfter: allowed ? 0 : retryAfterSeconds(resetAt, now),
  };
}

function rateSpecOf(rate: string): RateSpec | null {
  try {
    return parseRate(rate, 'rateLimit(rate)');
  } catch (error) {
    if (error instanceof SettingsError) throw new IntegrationError(error.message, { cause: error });
    throw error;
  }
}
