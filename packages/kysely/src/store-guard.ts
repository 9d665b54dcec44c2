import { SessauthError, StoreUnavailableError } from '@sessauth/core';
import { retryTransientConflicts, settleWithin } from '@sessauth/core/store';

/** How one store call is bounded. */
export interface GuardPolicy {
  /** The whole call, every statement, every retry and every wait for a connection included. */
  readonly timeoutMs: number;
}

export const DEFAULT_OPERATION_TIMEOUT_MS = 5000;

/** Validates the `operationTimeoutMs` option. */
export function operationTimeout(value: number | undefined): number {
  const ms = value ?? DEFAULT_OPERATION_TIMEOUT_MS;
  if (!Number.isFinite(ms) || ms <= 0) throw new TypeError('@sessauth/kysely: operationTimeoutMs must be a positive number');
  return ms;
}

/**
 * Runs one store operation under its deadline; any failure that is not already a
 * sessauth error (connection refused or lost, timeout, unexpected constraint)
 * becomes a StoreUnavailableError, which the core answers with 503: fail closed.
 * The message names the operation only; the driver error stays in `cause`.
 *
 * A transient conflict (`isTransientConflict`) is run again within the deadline: every
 * operation writes in one statement or one transaction, the last step it takes (the purge's
 * batches delete only what is still there), so a change is never applied twice.
 *
 * A call that misses its deadline is answered at once; statements it still has
 * on the wire end with their connection (`guardPostgresPool`/`guardMysqlPool`
 * destroy a connection whose query outlives the same bound), so a silent database
 * never holds a request or a pooled connection.
 */
export function guard<T>(operation: string, policy: GuardPolicy, run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + policy.timeoutMs;
  return withinBudget(operation, policy, () => retryTransientConflicts(run, deadline, isTransientConflict));
}

/** The store call's deadline (set before the work starts, so it fires before the pool guard's of the same length). */
function withinBudget<T>(operation: string, policy: GuardPolicy, start: () => PromiseLike<T>): Promise<T> {
  return settleWithin(
    policy.timeoutMs,
    start,
    () => new StoreUnavailableError(`@sessauth/kysely: ${operation} timed out after ${policy.timeoutMs} ms`),
    (error) => storeFailure(operation, error),
  );
}

/**
 * `guard` for one read already under way below kysely (`DirectReads`): the same
 * deadline and the same failure, without the retry loop (a read by primary key
 * meets no lock conflict).
 */
export function guardRead<T>(operation: string, policy: GuardPolicy, work: PromiseLike<T>): Promise<T> {
  return withinBudget(operation, policy, () => work);
}

function storeFailure(operation: string, error: unknown): Error {
  if (error instanceof SessauthError) return error;
  return new StoreUnavailableError(`@sessauth/kysely: ${operation} failed`, { cause: error });
}

/**
 * SQLite: SQLITE_BUSY (another process holds the write lock; the driver's own busy
 * wait would block the event loop). InnoDB: a deadlock victim (ER_LOCK_DEADLOCK,
 * which two UPDATEs of one row through different indexes can meet under a storm of
 * refreshes of one token). PostgreSQL: deadlock_detected and serialization_failure.
 */
export function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return code.startsWith('SQLITE_BUSY') || code === 'ER_LOCK_DEADLOCK' || code === '40P01' || code === '40001';
}
