// `pnpm --filter @sessauth/bench hashers [rounds]`: argon2id at OWASP's baseline (19 MiB, 2 passes,
// 1 lane) per runtime: the native @node-rs/argon2 and the WASM one (argon2-wasm-edge) on Node, Bun,
// Deno and workerd. Writes bench/results/hashers.md and hashers.json.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { createWasmArgon2PasswordHasher } from '@sessauth/core/argon2-wasm';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { measureHasher, type HasherTimes } from './measure-hasher.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const benchRoot = fileURLToPath(new URL('../../', import.meta.url));
const out = `${benchRoot}node_modules/.hasher-bench`;
const bin = (name: string) => `${benchRoot}node_modules/.bin/${name}`;
const require = createRequire(import.meta.url);
const rounds = Number(process.argv[2] ?? 20);

async function bundle(entry: string, worker: boolean): Promise<string> {
  mkdirSync(out, { recursive: true });
  const outfile = `${out}/${basename(entry, '.ts')}.mjs`;
  await build({
    entryPoints: [`${here}${entry}`],
    outfile,
    bundle: true,
    format: 'esm',
    platform: worker ? 'browser' : 'node',
    conditions: ['@sessauth/source', ...(worker ? ['workerd', 'worker', 'browser'] : [])],
    external: ['@node-rs/argon2', 'cloudflare:*'],
    logLevel: 'error',
    plugins: [
      {
        name: 'wasm-module',
        setup(plugin) {
          plugin.onResolve({ filter: /\.wasm$/ }, (args) => {
            const file = require.resolve(args.path);
            copyFileSync(file, `${out}/${basename(file)}`);
            return { path: `./${basename(file)}`, external: true };
          });
        },
      },
    ],
  });
  return outfile;
}

function inRuntime(command: string[], which: string): HasherTimes {
  const [file, ...args] = command as [string, ...string[]];
  const text = execFileSync(file, [...args, which, String(rounds)], { encoding: 'utf8' });
  return JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as HasherTimes;
}

async function inWorkerd(script: string): Promise<HasherTimes> {
  const mf = new Miniflare({
    modules: true,
    scriptPath: script,
    modulesRoot: out,
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: '2025-09-01',
  });
  const url = await mf.ready;
  const timed = async (path: string) => {
    const started = performance.now();
    await (await fetch(new URL(path, url))).text();
    return performance.now() - started;
  };
  await timed('/verify');
  const noop: number[] = [];
  const hashMs: number[] = [];
  const verifyMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    noop.push(await timed('/noop'));
    hashMs.push(await timed('/hash'));
    verifyMs.push(await timed('/verify'));
  }
  await mf.dispose();
  // The round trip of an empty request is taken off: what is left is the worker's hashing.
  const base = median(noop);
  return { hashMs: hashMs.map((ms) => ms - base), verifyMs: verifyMs.map((ms) => ms - base) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? Number.NaN;
}

const results: Array<{ runtime: string; hasher: string; times: HasherTimes }> = [];
const record = (runtime: string, hasher: string, times: HasherTimes) => {
  results.push({ runtime, hasher, times });
  console.log(`${runtime} ${hasher}: hash ${median(times.hashMs).toFixed(1)} ms, verify ${median(times.verifyMs).toFixed(1)} ms (medians)`);
};

record('Node', 'native (@node-rs/argon2)', await measureHasher(argon2PasswordHasher, rounds));
record('Node', 'wasm (argon2-wasm-edge)', await measureHasher(createWasmArgon2PasswordHasher(), rounds));
const runtimeEntry = await bundle('runtime-entry.ts', false);
const deno = [bin('deno'), 'run', '--allow-read', '--allow-env', '--allow-ffi', '--allow-sys', runtimeEntry];
record('Bun', 'native (@node-rs/argon2)', inRuntime([bin('bun'), runtimeEntry], 'native'));
record('Bun', 'wasm (argon2-wasm-edge)', inRuntime([bin('bun'), runtimeEntry], 'wasm'));
record('Deno', 'native (@node-rs/argon2, --allow-ffi)', inRuntime(deno, 'native'));
record('Deno', 'wasm (argon2-wasm-edge)', inRuntime(deno, 'wasm'));
record('workerd (Miniflare)', 'wasm (argon2-wasm-edge), timed from outside', await inWorkerd(await bundle('worker-entry.ts', true)));

const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load ${loadavg()
  .map((l) => l.toFixed(2))
  .join(' ')}`;
const rows = results.map(
  ({ runtime, hasher, times }) =>
    `| ${runtime} | ${hasher} | ${median(times.hashMs).toFixed(1)} | ${p95(times.hashMs).toFixed(1)} | ${median(times.verifyMs).toFixed(1)} | ${p95(times.verifyMs).toFixed(1)} |`,
);
const markdown = [
  `# argon2id per runtime (${new Date().toISOString().slice(0, 10)})`,
  '',
  `OWASP baseline (m=19456 KiB, t=2, p=1), ${rounds} sequential calls each after a warm-up; ${machine}.`,
  '',
  '| runtime | hasher | hash median ms | hash p95 ms | verify median ms | verify p95 ms |',
  '| --- | --- | ---: | ---: | ---: | ---: |',
  ...rows,
  '',
].join('\n');
mkdirSync(`${benchRoot}results`, { recursive: true });
writeFileSync(`${benchRoot}results/hashers.md`, markdown);
writeFileSync(`${benchRoot}results/hashers.json`, `${JSON.stringify({ date: new Date().toISOString(), machine, rounds, results }, null, 2)}\n`);
console.log(`\n${markdown}`);
