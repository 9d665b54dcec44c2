import { SessauthError, StoreUnavailableError } from '@sessauth/core';

/**
 * Runs one store operation under a time bound and turns every failure into a
 * `StoreUnavailableError`, so the core fails closed (503, or 429 for the limiter).
 * The bound is the last line of defence: a client built without
 * `recommendedRedisOptions` could otherwise queue a command while offline and hang
 * the request. A command that times out here may still run later on the server;
 * with `autoResendUnfulfilledCommands: false` it runs at most once.
 */
export async function guard<T>(operation: string, timeoutMs: number, run: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(`redis store: ${operation} timed out after ${timeoutMs} ms`, { operation })),
      timeoutMs,
    );
  });
  const work = run();
  // The loser of the race must not surface as an unhandled rejection.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, timeout]);
  } catch (error) {
    // Already a contract error (StoreUnavailableError is one): keep its code.
    if (error instanceof SessauthError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(`redis store: ${operation} failed: ${reason}`, { cause: error, operation });
  } finally {
    clearTimeout(timer);
  }
}
