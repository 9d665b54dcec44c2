import { SessauthError, StoreUnavailableError } from '@sessauth/core';
import { settleWithin } from '@sessauth/core/store';
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
 * error stays in `cause`.
 */
export function guard<T>(operation: string, timeoutMs: number, run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return settleWithin(
    timeoutMs,
    () => retryConflicts(run, deadline),
    () => new StoreUnavailableError(`@sessauth/prisma: ${operation} timed out after ${timeoutMs} ms`, { operation }),
    (error) =>
      error instanceof SessauthError ? error : new StoreUnavailableError(`@sessauth/prisma: ${operation} failed`, { cause: error, operation }),
  );
}

/**
 * Runs the call again after a transient conflict, with a short jittered pause, until the
 * deadline. Such an error means the statement or transaction that met it changed nothing (Prisma
 * rolls an interactive transaction back whole on an error), and every operation writes in one
 * statement or one transaction, its last step, so running the call again cannot apply a change
 * twice.
 */
async function retryConflicts<T>(run: () => Promise<T>, deadline: number): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      // From about 1 ms up to 20 ms, so two processes waiting on one lock do not retry in lock-step.
      const pause = Math.min(20, 2 ** Math.min(attempt, 5)) * (0.5 + Math.random() / 2);
      if (!isTransientConflict(error) || Date.now() + pause >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
