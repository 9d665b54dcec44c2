import { execFile, execFileSync } from 'node:child_process';
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

function runWrk(spec: LoadSpec): Promise<LoadResult> {
  const args = ['-t1', `-c${spec.connections}`, `-d${spec.durationSeconds}s`, '--latency'];
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
  return {
    requestsPerSecond: Number(rps[1]),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN),
    latencyP50Ms: percentile(out, '50%'),
    latencyP99Ms: percentile(out, '99%'),
    failures: non2xx + socketErrors,
  };
}

function percentile(out: string, label: string): number {
  const match = new RegExp(`^\\s+${label}\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out);
  if (match === null) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}
