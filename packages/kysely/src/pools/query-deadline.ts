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
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onExpire();
      reject(new QueryDeadlineError(what, timeoutMs));
    }, timeoutMs);
    // A pending bound alone must not keep the process alive.
    timer.unref();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
