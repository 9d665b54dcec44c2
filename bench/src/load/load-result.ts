/** One measured load run against one URL. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  /** Requests completed in the measured run. */
  readonly requests: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  /** Responses other than 2xx, plus socket errors: any makes the run invalid. */
  readonly failures: number;
  /** CPU time of the server process per request (µs), when the platform tells it. */
  readonly serverCpuMicrosPerRequest?: number | undefined;
}

export interface LoadSpec {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly durationSeconds: number;
}

export type LoadGenerator = { readonly name: string; run(spec: LoadSpec): Promise<LoadResult> };
