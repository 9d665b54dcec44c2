import { SessauthError, StoreUnavailableError } from '@sessauth/core';
import { retryTransientConflicts, settleWithin } from '@sessauth/core/store';
import { isTransientConflict } from './prisma-errors.js';

export const DEFAULT_OPERATION_TIMEOUT_MS = 5000;

/** Validates the `operationTimeoutMs` option. */
export function operationTimeout(value: number | undefined): number {
  const ms = value ?? DEFAULT_OPERATION_TIMEOUT_MS;
  if (!Number.isFinite(ms) || ms <= 0) throw new TypeError('@sessauth/prisma: operationTimeoutMs must be a positive number');
  return ms;
}

/**
 * Runs one store operation under its deadline (set before the work starts). Past it, or on any
 * failure that is not already a sessauth error (connection refused or lost, a missing table, a
 * transaction Prisma could not start in time), the call rejects with StoreUnavailableError,
 * which the core answers with 503: fail closed. The message names the operation only; Prisma's
 * error stays in `cause`. A transient conflict is run again within the deadline: Prisma rolls an
 * interactive transaction back whole on an error, and every operation writes in one statement or
 * one transaction, its last step, so a change is never applied twice.
 */
export function guard<T>(operation: string, timeoutMs: number, run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return settleWithin(
    timeoutMs,
    () => retryTransientConflicts(run, deadline, isTransientConflict),
    () => new StoreUnavailableError(`@sessauth/prisma: ${operation} timed out after ${timeoutMs} ms`, { operation }),
    (error) =>
      error instanceof SessauthError ? error : new StoreUnavailableError(`@sessauth/prisma: ${operation} failed`, { cause: error, operation }),
  );
}
