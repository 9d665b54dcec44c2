// Local run on any Node (Wrangler needs Node 22+): bundles src/worker.ts as Wrangler would
// (the .wasm imports stay compiled modules) and serves it with Miniflare, the same workerd.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist`;
const require = createRequire(import.meta.url);

/** Builds the worker into dist/ and returns a started Miniflare on it (exported for the example's test). */
export async function startExample({ port = 8787, vars = {} } = {}) {
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [`${root}src/worker.ts`],
    outfile: `${out}/worker.js`,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@sessauth/source', 'workerd', 'worker', 'browser'],
    external: ['cloudflare:*'],
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
  const mf = new Miniflare({
    modules: true,
    scriptPath: `${out}/worker.js`,
    modulesRoot: out,
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: '2025-09-01',
    host: '127.0.0.1',
    port,
    bindings: {
      JWT_ISSUER: 'https://auth.example.com',
      JWT_AUDIENCE: 'example-api',
      SESSAUTH_DEMO_USERS: 'alice:correct-horse-battery',
      ...vars,
    },
    durableObjects: { RATE_LIMITS: 'RateLimitCounter' },
  });
  return { url: await mf.ready, close: () => mf.dispose() };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.env.JWT_SECRET_KEY === undefined) {
    console.error('Set JWT_SECRET_KEY (at least 32 bytes) first.');
    process.exit(1);
  }
  const { url } = await startExample({ vars: { JWT_SECRET_KEY: process.env.JWT_SECRET_KEY } });
  console.log(`sessauth on workerd (Miniflare): listening on ${url.href}`);
}
