import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('..', import.meta.url));
// Inside node_modules: ignored by git and the linters, and the bundle still resolves its externals.
export const BUNDLE_DIR = `${here}node_modules/.sessauth-bundle`;

export type RuntimeName = 'bun' | 'deno' | 'workerd';

/**
 * One file per runtime, from TypeScript source (the `@sessauth/source` condition), as a user's
 * bundler would make it. Native modules and the runtime's own modules stay imports.
 */
export async function bundleEntry(runtime: RuntimeName): Promise<string> {
  mkdirSync(BUNDLE_DIR, { recursive: true });
  const outfile = `${BUNDLE_DIR}/${runtime}-entry.mjs`;
  const worker = runtime === 'workerd';
  await build({
    entryPoints: [`${here}host/${runtime}-entry.ts`],
    outfile,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: worker ? 'browser' : 'node',
    conditions: worker ? ['@sessauth/source', 'workerd', 'worker', 'browser'] : ['@sessauth/source', runtime],
    external: ['bun:*', 'node:*', 'cloudflare:*', '@node-rs/argon2'],
    plugins: [wasmBesideBundle],
    // CommonJS dependencies (ioredis) require Node's builtins; an ESM bundle has no `require` on Deno.
    ...(worker ? {} : { banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } }),
    logLevel: 'error',
  });
  return outfile;
}

const require = createRequire(import.meta.url);

/** A `.wasm` import stays an import of a copy beside the bundle (workerd loads it compiled, as Wrangler does). */
const wasmBesideBundle = {
  name: 'wasm-beside-bundle',
  setup(plugin: { onResolve(options: { filter: RegExp }, callback: (args: { path: string }) => { path: string; external: boolean }): void }) {
    plugin.onResolve({ filter: /\.wasm$/ }, (args) => {
      const file = require.resolve(args.path);
      copyFileSync(file, `${BUNDLE_DIR}/${basename(file)}`);
      return { path: `./${basename(file)}`, external: true };
    });
  },
};
