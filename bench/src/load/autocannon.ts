import autocannon from 'autocannon';
import type { LoadGenerator, LoadResult, LoadSpec } from './load-result.js';

/** The portable fallback when wrk is not installed (it shares the CPU with the server: read ratios). */
export const autocannonGenerator: LoadGenerator = {
  name: 'autocannon',
  async run(spec: LoadSpec): Promise<LoadResult> {
    const result = await autocannon({
      url: spec.url,
      connections: spec.connections,
      duration: spec.durationSeconds,
      headers: { ...spec.headers },
    });
    return {
      requestsPerSecond: result.requests.total / spec.durationSeconds,
      requests: result.requests.total,
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      latencyP999Ms: result.latency.p99_9,
      failures: result.non2xx + result.errors + result.timeouts,
    };
  },
};
