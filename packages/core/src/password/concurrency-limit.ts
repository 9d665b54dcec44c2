import { RequestAbortedError, SessauthError } from '../errors/sessauth-error.js';

/** Bounds of the waiting line of `limitConcurrency`; without them it waits without limit (as a plain semaphore). */
export interface WaitingLineBounds {
  /** At most this many tasks wait for a place; one more is refused at once. */
  readonly maxWaiting?: number;
  /** A task that waited this long for a place is refused instead of run. */
  readonly maxWaitMs?: number;
  /**
   * Told, after each task that ran, how long it waited for a place and how long it ran
   * (for metrics). Not called for a task refused or dropped before it ran. An observer that
   * throws is ignored: it must not fail the task.
   */
  readonly onTurn?: ((turn: TurnTiming) => void) | undefined;
}

/** One task's turn: milliseconds it waited for a place, then ran. */
export interface TurnTiming {
  readonly waitMs: number;
  readonly runMs: number;
}

/** One call's options: a task whose caller has gone away (its signal aborted) never runs. */
export interface TurnOptions {
  readonly signal?: AbortSignal | undefined;
}

/**
 * The password hasher cannot take more logins right now: 429 `login_busy` with a
 * `Retry-After`. Not a rate limit of this client, and not a store outage.
 */
export class HasherBusyError extends SessauthError {
  override readonly name = 'HasherBusyError';
  constructor(retryAfter: number) {
    super('login_busy', { retryAfter });
  }
}

interface Waiter {
  readonly start: () => void;
  readonly cleanup: () => void;
}

/**
 * Runs at most `max` tasks at once; the others wait in arrival order, in a line that
 * can be bounded (`bounds`). A task that throws or rejects frees its place like one that
 * resolves. A waiting task is dropped, before it runs, when the line is full (refused at
 * once), when it has waited `maxWaitMs`, or when its caller's signal aborts: a flood of
 * logins whose clients gave up never holds the hasher from the logins behind it.
 */
export function limitConcurrency(max: number, bounds: WaitingLineBounds = {}): <T>(task: () => Promise<T>, options?: TurnOptions) => Promise<T> {
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('limitConcurrency: max must be a positive integer');
  const { maxWaiting = Number.POSITIVE_INFINITY, maxWaitMs, onTurn } = bounds;
  let running = 0;
  const waiting: Waiter[] = [];
  const retryAfter = Math.max(1, Math.ceil((maxWaitMs ?? 1000) / 1000));
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next.start(); // the freed place passes straight to the next task
  };
  const refuse = (): HasherBusyError => new HasherBusyError(retryAfter);
  return <T>(task: () => Promise<T>, options: TurnOptions = {}): Promise<T> => {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new RequestAbortedError());
    // Timed only for an observer: without one, a turn reads no clock.
    const queuedAt = onTurn === undefined ? 0 : performance.now();
    const run = (): Promise<T> => {
      const startedAt = onTurn === undefined ? 0 : performance.now();
      let work: Promise<T>;
      try {
        work = task();
      } catch (error) {
        work = Promise.reject(error);
      }
      if (onTurn === undefined) return work.finally(release);
      return work.finally(() => {
        // Read before the place passes on: the next task's start is not this one's run.
        const endedAt = performance.now();
        release();
        try {
          onTurn({ waitMs: startedAt - queuedAt, runMs: endedAt - startedAt });
        } catch {
          // The observer's fault is its own; the task's answer stands.
        }
      });
    };
    if (running < max) {
      running += 1;
      return run();
    }
    if (waiting.length >= maxWaiting) return Promise.reject(refuse());
    return new Promise<T>((resolve, reject) => {
      const leave = (error: Error): void => {
        const index = waiting.indexOf(waiter);
        if (index !== -1) waiting.splice(index, 1);
        waiter.cleanup();
        reject(error);
      };
      const onAbort = (): void => leave(new RequestAbortedError());
      const timer = maxWaitMs === undefined ? undefined : setTimeout(() => leave(refuse()), maxWaitMs);
      const waiter: Waiter = {
        start: () => {
          waiter.cleanup();
          run().then(resolve, reject);
        },
        cleanup: () => {
          if (timer !== undefined) clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.push(waiter);
    });
  };
}

/** The CPUs this process may use (`os.availableParallelism()`), or 1 where the runtime does not say. */
export function availableCpus(): number {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const os = proc?.getBuiltinModule?.('node:os') as { availableParallelism?: () => number } | undefined;
  const count = os?.availableParallelism?.();
  return typeof count === 'number' && Number.isSafeInteger(count) && count > 0 ? count : 1;
}
