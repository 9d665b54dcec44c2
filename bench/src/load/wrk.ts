import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadGenerator, LoadResult, LoadSpec } from './load-result.js';

/** wrk (C, one thread): far less CPU per request than a Node client, which matters on 2 shared cores. */
export function findWrk(): LoadGenerator | null {
  try {
    const version = execFileSync('wrk', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { name: version.split('\n')[0]?.trim() || 'wrk', run: runWrk };
  } catch (error) {
    // wrk --version exits 1 but prints its banner: the binary is there.
    const out = (error as { stdout?: string }).stdout ?? '';
    if (out.startsWith('wrk')) return { name: out.split('\n')[0]!.trim(), run: runWrk };
    return null;
  }
}

/** A `done` hook that prints p50, p99 and p99.9 (wrk's --latency table stops at p99). */
const PERCENTILES_SCRIPT = fileURLToPath(new URL('./wrk-percentiles.lua', import.meta.url));

function runWrk(spec: LoadSpec): Promise<LoadResult> {
  // wrk closes a connection on a timeout (2 s by default): 10 s keeps a slow p99.9 measured, not dropped.
  const args = ['-t1', `-c${spec.connections}`, `-d${spec.durationSeconds}s`, '--timeout', '10s', '--latency', '-s', PERCENTILES_SCRIPT];
  for (const [name, value] of Object.entries(spec.headers)) args.push('-H', `${name}: ${value}`);
  args.push(spec.url);
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { encoding: 'utf8' }, (error, stdout) => {
      if (error !== null) reject(error);
      else resolve(parseWrk(stdout));
    });
  });
}

export function parseWrk(out: string): LoadResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (rps === null) throw new Error(`wrk printed no rate:\n${out}`);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket === null ? 0 : socket.slice(1).reduce((sum, n) => sum + Number(n), 0);
  const scripted = scriptedPercentiles(out);
  return {
    requestsPerSecond: Number(rps[1]),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN),
    latencyP50Ms: scripted?.p50 ?? percentile(out, '50%'),
    latencyP99Ms: scripted?.p99 ?? percentile(out, '99%'),
    latencyP999Ms: scripted?.p999 ?? Number.NaN,
    failures: non2xx + socketErrors,
  };
}

/** The line of wrk-percentiles.lua, in ms. */
function scriptedPercentiles(out: string): { p50: number; p99: number; p999: number } | undefined {
  const match = /^PERCENTILES p50=(\d+) p99=(\d+) p999=(\d+)$/m.exec(out);
  if (match === null) return undefined;
  return { p50: Number(match[1]) / 1000, p99: Number(match[2]) / 1000, p999: Number(match[3]) / 1000 };
}

function percentile(out: string, label: string): number {
  const match = new RegExp(`^\\s+${label}\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out);
  if (match === null) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}
