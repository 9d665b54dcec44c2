// `pnpm example <adapter>`: starts examples/<adapter> from its TypeScript source.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const adapter = process.argv[2] ?? 'express';
const dir = fileURLToPath(new URL(`../examples/${adapter}/`, import.meta.url));
if (!/^[a-z]+$/.test(adapter) || adapter === 'shared' || !existsSync(`${dir}src/server.ts`)) {
  console.error(`Unknown example "${adapter}". Try: express, fastify, koa, fetch, drizzle, prisma`);
  process.exit(2);
}
// The demo page at GET / loads the built browser client: build it once if a fresh clone lacks it.
const clientDir = fileURLToPath(new URL('../packages/client/', import.meta.url));
if (!existsSync(`${clientDir}dist/index.js`)) {
  console.log('Building @sessauth/client for the demo page...');
  const tsup = fileURLToPath(new URL('../node_modules/tsup/dist/cli-default.js', import.meta.url));
  const build = spawnSync(process.execPath, [tsup, '--silent'], { cwd: clientDir, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('Could not build @sessauth/client (packages/client); the demo page needs it.');
    process.exit(1);
  }
}
// An example with a setup step of its own (the Prisma one generates its client) runs it first.
if (existsSync(`${dir}scripts/prepare.mjs`)) {
  const prepare = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: dir, stdio: 'inherit', env: process.env });
  if (prepare.status !== 0) process.exit(prepare.status ?? 1);
}
const tsx = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
const child = spawn(process.execPath, [tsx, '--conditions=@sessauth/source', 'src/server.ts'], { cwd: dir, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
