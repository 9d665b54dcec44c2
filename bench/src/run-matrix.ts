import type { LoadGenerator, LoadResult, LoadSpec } from './load/load-result.js';
import { runPaced } from './load/paced.js';
import { processCpuSeconds } from './load/process-cpu.js';
import { startServer, type RunningServer } from './load/server-process.js';
import { type LoadPoint, loadName } from './load-points.js';
import type { Variant } from './variants.js';

export interface MatrixOptions {
  readonly rounds: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /** The first is a saturated load: the paced loads take their rate from its jose-only run. */
  readonly loads: readonly LoadPoint[];
  readonly generator: LoadGenerator;
  readonly log: (line: string) => void;
}

/** One variant measured at one load in one round. */
export interface Sample {
  readonly variant: string;
  readonly round: number;
  /** `saturated-32`, `saturated-256`, `paced-50%` (see load-points.ts). */
  readonly load: string;
  readonly result: LoadResult;
}

const ms = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '?' : value.toFixed(2));

/**
 * One block per framework: every variant of the framework starts as its own process
 * (they idle while another is under load), each is probed and warmed up, then each round
 * runs every load in turn and, within a load, every variant once (odd rounds backwards). A
 * ratio to the jose-only route is taken within a round and a load, between runs seconds
 * apart that met the same machine load; on a shared machine that matters more than anything else.
 */
export async function runMatrix(variants: readonly Variant[], options: MatrixOptions): Promise<Sample[]> {
  const samples: Sample[] = [];
  const first = options.loads[0];
  if (first?.kind !== 'saturated') throw new Error('the first load must be a saturated one');
  for (const framework of [...new Set(variants.map((v) => v.framework))]) {
    const block = variants.filter((v) => v.framework === framework);
    const servers = new Map<string, RunningServer>();
    try {
      for (const variant of block) servers.set(variant.id, await startServer(variant.id));
      for (const variant of block) await warmUp(variant, servers.get(variant.id)!, first.connections, options);
      for (let round = 0; round < options.rounds; round += 1) {
        for (const load of options.loads) {
          let rate: number | undefined;
          if (load.kind === 'paced') {
            const jose = samples.find((s) => s.variant === `${framework}/jose` && s.round === round && s.load === loadName(first));
            if (jose === undefined) {
              options.log(`round ${round + 1}: no jose-only run in ${framework} to pace from: ${loadName(load)} skipped`);
              continue;
            }
            rate = Math.max(1, Math.round(jose.result.requestsPerSecond * load.fractionOfJose));
          }
          for (const variant of round % 2 === 0 ? block : [...block].reverse()) {
            const result = await measure(servers.get(variant.id)!, load, rate, options);
            options.log(
              `round ${round + 1}/${options.rounds} ${loadName(load).padEnd(14)} ${variant.id.padEnd(36)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s` +
                `${rate === undefined ? '' : ` of ${rate}`}  ${result.serverCpuMicrosPerRequest?.toFixed(0) ?? '?'} µs CPU/req` +
                `  p50 ${ms(result.latencyP50Ms)} p99 ${ms(result.latencyP99Ms)} p99.9 ${ms(result.latencyP999Ms)} ms` +
                `${result.failures > 0 ? `  FAILURES ${result.failures}` : ''}${(result.unanswered ?? 0) > 0 ? `  UNANSWERED ${result.unanswered}` : ''}`,
            );
            samples.push({ variant: variant.id, round, load: loadName(load), result });
          }
        }
      }
    } finally {
      for (const server of servers.values()) await server.stop();
    }
  }
  return samples;
}

/** One measured run, with the server's own CPU time per request. */
async function measure(server: RunningServer, load: LoadPoint, rate: number | undefined, options: MatrixOptions): Promise<LoadResult> {
  const spec: LoadSpec = { ...specOf(server, load.connections), durationSeconds: options.durationSeconds };
  const cpuBefore = processCpuSeconds(server.pid);
  const result = rate === undefined ? await options.generator.run(spec) : await runPaced({ ...spec, ratePerSecond: rate });
  const cpuAfter = processCpuSeconds(server.pid);
  const cpu =
    cpuBefore === undefined || cpuAfter === undefined || result.requests === 0 ? undefined : ((cpuAfter - cpuBefore) * 1e6) / result.requests;
  // No answer at all in the measured time is a failed run, not a rate of 0.
  return { ...result, serverCpuMicrosPerRequest: cpu, failures: result.requests === 0 ? Math.max(1, result.failures) : result.failures };
}

function specOf(server: RunningServer, connections: number): Omit<LoadSpec, 'durationSeconds'> {
  return { url: server.url, headers: server.headers, connections };
}

async function warmUp(variant: Variant, server: RunningServer, connections: number, options: MatrixOptions): Promise<void> {
  // A refused credential would measure the 401 path: check one request first.
  const probe = await fetch(server.url, { headers: server.headers });
  if (probe.status !== 200) throw new Error(`${variant.id}: the probe request answered ${probe.status}: ${await probe.text()}`);
  if (options.warmupSeconds > 0) await options.generator.run({ ...specOf(server, connections), durationSeconds: options.warmupSeconds });
}
