/**
 * The one deadline of the project (a request's store budget, the geolocation lookup, the
 * stores' own call bounds): one promise and one timer, no race. The timer is set before
 * `start` runs, so of two bounds of one length the outer one, set first, fires first. A
 * failure of the work passes through `failure`; the first settlement wins, and a late
 * settlement of the work is ignored (never an unhandled rejection).
 */
export function settleWithin<T>(
  timeoutMs: number,
  start: () => PromiseLike<T>,
  expired: () => Error,
  failure: (error: unknown) => unknown = (error) => error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(expired()), timeoutMs);
    // A pending bound alone must not keep the process (or a worker) alive.
    unrefTimer(timer);
    let work: PromiseLike<T>;
    try {
      work = start();
    } catch (error) {
      clearTimeout(timer);
      reject(failure(error));
      return;
    }
    work.then(
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

/** Node and Bun return a timer object with `unref`; browsers, Deno and workers a number. */
function unrefTimer(timer: unknown): void {
  if (typeof timer === 'object' && timer !== null && 'unref' in timer && typeof timer.unref === 'function') timer.unref();
}
