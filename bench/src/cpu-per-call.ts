// Process CPU per call of an async function, many calls in flight: what other processes on a
// shared machine disturb least (every thread counted, the thread pool's share too).

/** One call of the thing measured; null when the call cannot be made (its pre-made inputs are used up): the slice ends there. */
export type Once = () => Promise<unknown> | null;

export interface Slice {
  /** CPU µs of this process per call. */
  readonly cpuMicrosPerCall: number;
  /** Completed calls per wall-clock second. */
  readonly callsPerSecond: number;
}

/** One slice of `seconds`, `callers` calls in flight. */
export async function measureSlice(once: Once, seconds: number, callers: number): Promise<Slice> {
  const start = performance.now();
  const end = start + seconds * 1000;
  let calls = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < end) {
        const call = once();
        if (call === null) return;
        await call;
        calls += 1;
      }
    }),
  );
  const used = process.cpuUsage(before);
  return { cpuMicrosPerCall: (used.user + used.system) / calls, callsPerSecond: calls / ((performance.now() - start) / 1000) };
}

/** CPU µs per call over one slice of `seconds`, `callers` calls in flight. */
export async function cpuPerCall(once: Once, seconds: number, callers: number): Promise<number> {
  return (await measureSlice(once, seconds, callers)).cpuMicrosPerCall;
}
