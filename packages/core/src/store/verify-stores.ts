import { describeStoreFault } from '../errors/describe-store-fault.js';
import { StoreSchemaError } from '../errors/store-schema-error.js';
import type { Logger } from '../log/logger.js';
import type { RateLimitStore, SessionStore } from './store-port.js';

/**
 * The start-up check of `createSessauth`: runs each store's optional `verify()` at
 * once. A definite schema problem (`StoreSchemaError`) rejects, so the host fails
 * to start with the migration to run. Any other failure (the database is down or
 * slow at boot) must not keep the host down: it is logged as `store_unverified`,
 * with the same fault details as `store_unavailable`, and start-up goes on; the
 * calls then answer 503 until the store is back.
 */
export async function verifyStores(
  stores: { readonly session: SessionStore; readonly rateLimit: RateLimitStore | undefined },
  logger: Logger,
): Promise<void> {
  const checks: Array<readonly [string, () => Promise<void>]> = [];
  const { session, rateLimit } = stores;
  const verifySession = session.verify;
  if (typeof verifySession === 'function') checks.push(['session', () => verifySession.call(session)]);
  const verifyRateLimit = rateLimit?.verify;
  if (typeof verifyRateLimit === 'function') checks.push(['rate_limit', () => verifyRateLimit.call(rateLimit)]);
  // A verify that throws synchronously is a rejection like any other.
  const outcomes = await Promise.allSettled(checks.map(async ([, check]) => check()));
  let schemaError: StoreSchemaError | undefined;
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') return;
    const error: unknown = outcome.reason;
    if (error instanceof StoreSchemaError) {
      schemaError ??= error;
      return;
    }
    logger.warn('store_unverified', {
      store: checks[index]![0],
      error: error instanceof Error ? error.name : typeof error,
      operation: 'verify',
      ...describeStoreFault(error),
    });
  });
  if (schemaError !== undefined) throw schemaError;
}
