/** Median latency and throughput of one operation at a given concurrency. */
export interface Measurement {
  readonly medianUs: number;
  readonly opsPerSec: number;
  readonly ops: number;
}

type Op = (worker: number) => Promise<unknown>;

/**
 * Measures several variants of one operation side by side. The machine may be
 * shared and its load drifts, so the variants take turns in short slices (the
 * order rotating each round) rather than one long run each; every variant is
 * warmed up first (JIT, pool fill, statement and plan caches).
 */
export async function compare<K extends string>(
  variants: Readonly<Record<K, Op>>,
  concurrency: number,
  rounds: number,
  sliceMs: number,
): Promise<Record<K, Measurement>> {
  const names = Object.keys(variants) as K[];
  const latencies = new Map<K, number[]>(names.map((name) => [name, []]));
  const busyMs = new Map<K, number>(names.map((name) => [name, 0]));
  for (const name of names) await runFor(variants[name], concurrency, sliceMs, null);
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + round) % names.length] as K;
      const started = performance.now();
      await runFor(variants[name], concurrency, sliceMs, latencies.get(name) ?? []);
      busyMs.set(name, (busyMs.get(name) ?? 0) + performance.now() - started);
    }
  }
  const result = {} as Record<K, Measurement>;
  for (const name of names) {
    const sorted = (latencies.get(name) ?? []).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    result[name] = { medianUs: median * 1000, opsPerSec: (sorted.length / (busyMs.get(name) ?? 1)) * 1000, ops: sorted.length };
  }
  return result;
}

async function runFor(op: Op, concurrency: number, durationMs: number, latencies: number[] | null): Promise<void> {
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
