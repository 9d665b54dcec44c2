/** One measured load run against one URL. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  /** Requests completed in the measured run. */
  readonly requests: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  /** p99.9; absent in results recorded before it was measured. */
  readonly latencyP999Ms?: number | undefined;
  /** Responses other than 2xx, plus socket errors: any makes the run invalid. */
  readonly failures: number;
  /** CPU time of the server process per request (µs), when the platform tells it. */
  readonly serverCpuMicrosPerRequest?: number | undefined;
  /** A paced run's arrival rate (req/s); absent for a closed-loop (saturating) run. */
  readonly offeredPerSecond?: number | undefined;
  /** A paced run's requests that had no answer when it ended (counted at their wait so far). */
  readonly unanswered?: number | undefined;
}

export interface LoadSpec {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly durationSeconds: number;
}

/** A closed-loop generator: every connection sends its next request when the last one is answered (saturation). */
export type LoadGenerator = { readonly name: string; run(spec: LoadSpec): Promise<LoadResult> };

/** A percentile of sorted values (nearest rank), NaN when there are none. */
export function percentileOf(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}
