/** Median latency and throughput of one operation at a given concurrency. */
export interface Measurement {
  readonly medianUs: number;
  readonly opsPerSec: number;
  readonly ops: number;
}

/**
 * Runs `op` from `concurrency` workers, each awaiting its previous call, first for
 * `warmupMs` (discarded: JIT, pool fill, plan caches), then for `durationMs`.
 */
export async function measure(
  op: (worker: number) => Promise<unknown>,
  concurrency: number,
  durationMs: number,
  warmupMs: number,
): Promise<Measurement> {
  await runFor(op, concurrency, warmupMs, null);
  const latencies: number[] = [];
  const started = performance.now();
  await runFor(op, concurrency, durationMs, latencies);
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const median = latencies[Math.floor(latencies.length / 2)] ?? Number.NaN;
  return { medianUs: median * 1000, opsPerSec: (latencies.length / elapsed) * 1000, ops: latencies.length };
}

async function runFor(
  op: (worker: number) => Promise<unknown>,
  concurrency: number,
  durationMs: number,
  latencies: number[] | null,
): Promise<void> {
  const end = performance.now() + durationMs;
  const worker = async (index: number) => {
    while (performance.now() < end) {
      const t0 = performance.now();
      await op(index);
      latencies?.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, index) => worker(index)));
}
