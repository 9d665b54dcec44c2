// Process CPU per call of an async function, many calls in flight: what other processes on a
// shared machine disturb least (every thread counted, the thread pool's share too).
import type { Once } from './memory-guard.js';

/** CPU µs per call over one slice of `seconds`, CALLERS calls in flight. */
export async function cpuPerCall(once: Once, seconds: number, callers: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let calls = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < end) {
        await once();
        calls += 1;
      }
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}
