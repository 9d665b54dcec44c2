// `node bench/run.mjs` runs the benchmark; this profiles one variant instead:
//   node ../node_modules/tsx/dist/cli.mjs --conditions=@sessauth/source src/profile-guard.ts express/sessauth-memory [seconds]
// The server runs under `node --cpu-prof` while wrk (or autocannon) drives it; the
// self time of its hottest functions is printed and the .cpuprofile kept for DevTools.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { autocannonGenerator } from './load/autocannon.js';
import { startServer } from './load/server-process.js';
import { findWrk } from './load/wrk.js';
import { prepareStores } from './prepare-stores.js';
import { parseVariant } from './variants.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

const variant = parseVariant(process.argv[2] ?? 'express/sessauth-memory');
const seconds = Number(process.argv[3] ?? 10);
const dir = `/tmp/sessauth-bench16-profiles/${variant.id.replace('/', '-')}-${Date.now()}`;
mkdirSync(dir, { recursive: true });
if ('store' in variant.route && variant.route.store !== 'memory') await prepareStores([variant.route.store], console.log);
const server = await startServer(variant.id, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
const generator = findWrk() ?? autocannonGenerator;
const result = await generator.run({ url: server.url, headers: server.headers, connections: 32, durationSeconds: seconds });
await server.stop();
console.log(`${variant.id}: ${Math.round(result.requestsPerSecond)} req/s under the profiler (${result.failures} failures)`);
const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
if (file === undefined) throw new Error('no profile written');
console.log(`profile: ${dir}/${file}\n`);
printSelfTime(JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as CpuProfile);

/** Self samples per function (name + file:line), and per package or source area. */
function printSelfTime(profile: CpuProfile): void {
  const counts = new Map<number, number>();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const node of profile.nodes) {
    const n = counts.get(node.id) ?? 0;
    if (n === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url
      .replace(/^file:\/\//, '')
      .replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
      .replace(/.*\/work\/main\//, '');
    const key = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + n);
    const area =
      where === ''
        ? functionName
        : where.startsWith('node:')
          ? where
          : where
              .split('/')
              .slice(0, where.startsWith('@') || where.startsWith('packages') ? 2 : 1)
              .join('/');
    byArea.set(area, (byArea.get(area) ?? 0) + n);
  }
  const total = profile.samples.length;
  const show = (title: string, map: Map<string, number>, top: number) => {
    console.log(title);
    for (const [key, n] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${((100 * n) / total).toFixed(1).padStart(5)}%  ${key}`);
    }
    console.log('');
  };
  show('self time by area', byArea, 25);
  show('self time by function', byFunction, 40);
}
