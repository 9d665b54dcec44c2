/** A statement (or the wait for a connection) outlived the bound of a guarded pool. */
export class QueryDeadlineError extends Error {
  override readonly name = 'QueryDeadlineError';
  constructor(what: string, timeoutMs: number) {
    super(`@sessauth/kysely: ${what} did not finish within ${timeoutMs} ms; its connection was destroyed`);
  }
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

/**
 * The one deadline of this package (statements, connection waits, store calls): one
 * promise and one timer, no race. The timer is set before `start` runs, so of two
 * bounds of one length the outer one, set first, fires first. A failure of the work
 * passes through `failure`; the first settlement wins.
 */
export function settleWithin<T>(
  timeoutMs: number,
  start: () => PromiseLike<T>,
  expired: () => Error,
  failure: (error: unknown) => unknown = (error) => error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(expired()), timeoutMs);
    // A pending bound alone must not keep the process alive.
    timer.unref();
    start().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(failure(error));
      },
    );
  });
}
