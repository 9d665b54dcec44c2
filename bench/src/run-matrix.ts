import type { LoadGenerator, LoadResult, LoadSpec } from './load/load-result.js';
import { processCpuSeconds } from './load/process-cpu.js';
import { startServer, type RunningServer } from './load/server-process.js';
import type { Variant } from './variants.js';

export interface MatrixOptions {
  readonly rounds: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  readonly generator: LoadGenerator;
  readonly log: (line: string) => void;
}

/** One variant measured in one round. */
export interface Sample {
  readonly variant: string;
  readonly round: number;
  readonly result: LoadResult;
}

/**
 * One block per framework: every variant of the framework starts as its own process
 * (they idle while another is under load), each is probed and warmed up, then the
 * rounds run every variant once in turn (odd rounds backwards). A ratio to the
 * jose-only route is taken within a round, between runs seconds apart that met the
 * same machine load; on a shared machine that matters more than anything else.
 */
export async function runMatrix(variants: readonly Variant[], options: MatrixOptions): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const framework of [...new Set(variants.map((v) => v.framework))]) {
    const block = variants.filter((v) => v.framework === framework);
    const servers = new Map<string, RunningServer>();
    try {
      for (const variant of block) servers.set(variant.id, await startServer(variant.id));
      for (const variant of block) await warmUp(variant, servers.get(variant.id)!, options);
      for (let round = 0; round < options.rounds; round += 1) {
        for (const variant of round % 2 === 0 ? block : [...block].reverse()) {
          const result = await measure(servers.get(variant.id)!, options);
          options.log(
            `round ${round + 1}/${options.rounds} ${variant.id.padEnd(32)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s` +
              `  ${result.serverCpuMicrosPerRequest?.toFixed(0) ?? '?'} µs CPU/req  p99 ${result.latencyP99Ms.toFixed(2)} ms${result.failures > 0 ? `  FAILURES ${result.failures}` : ''}`,
          );
          samples.push({ variant: variant.id, round, result });
        }
      }
    } finally {
      for (const server of servers.values()) await server.stop();
    }
  }
  return samples;
}

/** One measured run, with the server's own CPU time per request. */
async function measure(server: RunningServer, options: MatrixOptions): Promise<LoadResult> {
  const cpuBefore = processCpuSeconds(server.pid);
  const result = await options.generator.run({ ...specOf(server, options), durationSeconds: options.durationSeconds });
  const cpuAfter = processCpuSeconds(server.pid);
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / result.requests;
  return { ...result, serverCpuMicrosPerRequest: cpu };
}

function specOf(server: RunningServer, options: MatrixOptions): Omit<LoadSpec, 'durationSeconds'> {
  return { url: server.url, headers: server.headers, connections: options.connections };
}

async function warmUp(variant: Variant, server: RunningServer, options: MatrixOptions): Promise<void> {
  // A refused credential would measure the 401 path: check one request first.
  const probe = await fetch(server.url, { headers: server.headers });
  if (probe.status !== 200) throw new Error(`${variant.id}: the probe request answered ${probe.status}: ${await probe.text()}`);
  if (options.warmupSeconds > 0) await options.generator.run({ ...specOf(server, options), durationSeconds: options.warmupSeconds });
}
