import { describeStoreFault } from '../errors/describe-store-fault.js';
import { StoreSchemaError } from '../errors/store-schema-error.js';
import type { Logger } from '../log/logger.js';
import type { RateLimitStore, SessionStore } from './store-port.js';

/**
 * The start-up check of `createSessauth`: runs each store's optional `checkSchema()`
 * (or, from a store written before the rename, `verify()`) at once. A definite schema problem (`StoreSchemaError`) rejects, so the host fails
 * to start with the migration to run. Any other failure (the database is down or
 * slow at boot) must not keep the host down: it is logged as `store_unverified`,
 * with the same fault details as `store_unavailable`, and start-up goes on; the
 * calls then answer 503 until the store is back.
 */
export async function checkStoreSchemas(
  stores: { readonly session: SessionStore; readonly rateLimit: RateLimitStore | undefined },
  logger: Logger,
): Promise<void> {
  const checks: Array<readonly [string, () => Promise<void>]> = [];
  const { session, rateLimit } = stores;
  const checkSession = schemaCheckOf(session);
  if (checkSession !== undefined) checks.push(['session', checkSession]);
  const checkRateLimit = rateLimit === undefined ? undefined : schemaCheckOf(rateLimit);
  if (checkRateLimit !== undefined) checks.push(['rate_limit', checkRateLimit]);
  // A check that throws synchronously is a rejection like any other.
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
      operation: 'checkSchema',
      ...describeStoreFault(error),
    });
  });
  if (schemaError !== undefined) throw schemaError;
}

/** The store's `checkSchema`, or its deprecated `verify` (the name before `verify` came to mean tokens only). */
function schemaCheckOf(store: SessionStore | RateLimitStore): (() => Promise<void>) | undefined {
  const check = store.checkSchema ?? store.verify;
  return typeof check === 'function' ? () => check.call(store) : undefined;
}
