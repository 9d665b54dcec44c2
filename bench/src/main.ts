import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs, USAGE, type BenchArgs } from './cli-args.js';
import { SEEDED_SESSIONS } from './config.js';
import { autocannonGenerator } from './load/autocannon.js';
import type { LoadGenerator } from './load/load-result.js';
import { findWrk } from './load/wrk.js';
import { loadPoints } from './load-points.js';
import { runOperations } from './ops/run-operations.js';
import { prepareStores } from './prepare-stores.js';
import { machineInfo, packageVersions, type MachineInfo } from './report/machine-info.js';
import { toMarkdown } from './report/markdown.js';
import { serverVersions } from './report/server-versions.js';
import { guardChart, latencyChart } from './report/svg-chart.js';
import type { BenchResults, OperationRow } from './results.js';
import { runMatrix, type Sample } from './run-matrix.js';
import { cleanUp } from './stores/cleanup.js';
import { comparisons, summarize } from './summarize.js';
import { listVariants } from './variants.js';

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

function pickGenerator(choice: 'wrk' | 'autocannon' | undefined): LoadGenerator {
  if (choice === 'autocannon') return autocannonGenerator;
  const wrk = findWrk();
  if (wrk !== null) return wrk;
  if (choice === 'wrk') throw new Error('wrk is not installed (apt-get install wrk), or use --generator autocannon');
  log('wrk not found: using autocannon, which shares the CPU with the server (install wrk for steadier numbers)');
  return autocannonGenerator;
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseBenchArgs(process.argv.slice(2), fileURLToPath(new URL('../results/', import.meta.url)));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const machine = machineInfo();
  const generator = pickGenerator(args.generator);
  log(`${machine.nproc} × ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAverage.join(' ')}; generator ${generator.name}`);
  const servers = await serverVersions(args.stores);
  let samples: Sample[] = [];
  let operations: OperationRow[] = [];
  const write = () => writeResults(args.out, machine, servers, generator, args, samples, operations);
  try {
    if (args.guard) {
      await prepareStores(args.stores, log);
      const variants = listVariants({ frameworks: args.frameworks, stores: args.stores, peers: args.peers, routes: args.routes });
      const loads = loadPoints(args.connections, args.highConnections, args.pacedFraction);
      log(
        `${variants.length} variants × ${args.rounds} rounds × ${loads.length} loads × ${args.durationSeconds} s (+ ${args.warmupSeconds} s warm-up each)`,
      );
      samples = await runMatrix(variants, {
        rounds: args.rounds,
        durationSeconds: args.durationSeconds,
        warmupSeconds: args.warmupSeconds,
        loads,
        generator,
        log,
      });
      // Kept at once: a later failure must not cost the matrix.
      write();
    }
    if (args.operations) operations = await runOperations(args, generator, log);
  } finally {
    if (!args.keep) await cleanUp();
  }
  console.log(toMarkdown(write()));
  log(`results in ${args.out}`);
}

function writeResults(
  out: string,
  machine: MachineInfo,
  servers: Record<string, string>,
  generator: LoadGenerator,
  args: BenchArgs,
  samples: Sample[],
  operations: OperationRow[],
): BenchResults {
  const results: BenchResults = {
    machine,
    loadAverageAtEnd: loadavg().map((v) => Math.round(v * 100) / 100),
    packages: packageVersions(),
    servers,
    settings: {
      generator: generator.name,
      rounds: args.rounds,
      durationSeconds: args.durationSeconds,
      warmupSeconds: args.warmupSeconds,
      connections: args.connections,
      highConnections: args.highConnections,
      pacedFraction: args.pacedFraction,
      seededSessions: SEEDED_SESSIONS,
      command: `pnpm bench ${process.argv.slice(2).join(' ')}`.trim(),
    },
    guard: { samples, summaries: summarize(samples), comparisons: comparisons(samples) },
    operations,
  };
  mkdirSync(out, { recursive: true });
  writeFileSync(`${out}/results.json`, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(`${out}/results.md`, toMarkdown(results));
  if (samples.length > 0) {
    const title = `Guarded GET /me, req/s (${machine.nproc} × ${machine.cpuModel}, Node ${machine.node}, ${args.rounds} rounds)`;
    writeFileSync(`${out}/guard-req-per-s.svg`, guardChart(results.guard.summaries, title));
    const paced = results.guard.summaries.find((s) => s.load.startsWith('paced-'))?.load;
    if (paced !== undefined) {
      const latencyTitle = `Guarded GET /me, p99 latency at a fixed load (${paced.slice(6)} of jose-only's rate), ms (${machine.nproc} × ${machine.cpuModel}, ${args.rounds} rounds)`;
      writeFileSync(`${out}/guard-p99-at-fixed-load.svg`, latencyChart(results.guard.summaries, paced, latencyTitle));
    }
  }
  return results;
}

await main();
