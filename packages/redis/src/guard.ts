import { SessauthError, StoreUnavailableError } from '@sessauth/core';

/**
 * Runs one store operation under a time bound and turns every failure into a
 * `StoreUnavailableError`, so the core fails closed (503, or 429 for the limiter).
 * The bound is the last line of defence: a client built without
 * `recommendedRedisOptions` could otherwise queue a command while offline and hang
 * the request. A command that times out here may still run later on the server;
 * with `autoResendUnfulfilledCommands: false` it runs at most once.
 *
 * One promise and one timer, no race: the guard's session read goes through here on
 * every authenticated request.
 */
export function guard<T>(operation: string, timeoutMs: number, run: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new StoreUnavailableError(`redis store: ${operation} timed out after ${timeoutMs} ms`, { operation })),
      timeoutMs,
    );
    let work: Promise<T>;
    try {
      work = run();
    } catch (error) {
      work = Promise.reject(error);
    }
    // Settling after the timeout is a no-op: the first settlement wins.
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(storeFailure(operation, error));
      },
    );
  });
}

function storeFailure(operation: string, error: unknown): Error {
  // Already a contract error (StoreUnavailableError is one): keep its code.
  if (error instanceof SessauthError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(`redis store: ${operation} failed: ${reason}`, { cause: error, operation });
}
