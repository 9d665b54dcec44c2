import { settleWithin } from '@sessauth/core/store';

/** A statement (or the wait for a connection) outlived the bound of a guarded pool. */
export class QueryDeadlineError extends Error {
  override readonly name = 'QueryDeadlineError';
  constructor(what: string, timeoutMs: number) {
    super(`@sessauth/kysely: ${what} did not finish within ${timeoutMs} ms; its connection was destroyed`);
  }
}

export interface PoolGuardOptions {
  /**
   * Upper bound of one statement, and of the wait for a connection (MySQL; `pg`
   * bounds that with `connectionTimeoutMillis`). A connection whose statement
   * outlives it is destroyed, never returned to the pool. Keep it at the store's
   * `operationTimeoutMs`. @default 5000
   */
  queryTimeoutMs?: number;
}

/** Validates `queryTimeoutMs` of the pool guards. */
export function queryTimeout(value: number | undefined): number {
  const ms = value ?? 5000;
  if (!Number.isFinite(ms) || ms <= 0) throw new TypeError('@sessauth/kysely: queryTimeoutMs must be a positive number');
  return ms;
}

/**
 * Settles like `work`, or rejects with QueryDeadlineError after `timeoutMs` and
 * calls `onExpire` (which destroys the connection: after a missed deadline nobody
 * knows what the server did or what is still on the wire, so it is never reused).
 * The bound is the project's one deadline helper, `settleWithin` (one promise, one timer).
 */
export function withinDeadline<T>(work: PromiseLike<T>, timeoutMs: number, what: string, onExpire: () => void): Promise<T> {
  return settleWithin(
    timeoutMs,
    () => work,
    () => {
      onExpire();
      return new QueryDeadlineError(what, timeoutMs);
    },
  );
}
