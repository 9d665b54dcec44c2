/**
 * Runs at most `max` tasks at once; the others wait in arrival order. A task that
 * throws or rejects frees its place like one that resolves.
 */
export function limitConcurrency(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('limitConcurrency: max must be a positive integer');
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next(); // the freed place passes straight to the next task
  };
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = (): Promise<T> => {
      let work: Promise<T>;
      try {
        work = task();
      } catch (error) {
        work = Promise.reject(error);
      }
      return work.finally(release);
    };
    if (running < max) {
      running += 1;
      return run();
    }
    return new Promise<void>((resolve) => waiting.push(resolve)).then(run);
  };
}

/** The CPUs this process may use (`os.availableParallelism()`), or 1 where the runtime does not say. */
export function availableCpus(): number {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const os = proc?.getBuiltinModule?.('node:os') as { availableParallelism?: () => number } | undefined;
  const count = os?.availableParallelism?.();
  return typeof count === 'number' && Number.isSafeInteger(count) && count > 0 ? count : 1;
}
