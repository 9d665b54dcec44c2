// `pnpm example <adapter>`: starts examples/<adapter> from its TypeScript source.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const adapter = process.argv[2] ?? 'express';
const dir = fileURLToPath(new URL(`../examples/${adapter}/`, import.meta.url));
if (!/^[a-z]+$/.test(adapter) || adapter === 'shared' || !existsSync(`${dir}src/server.ts`)) {
  console.error(`Unknown example "${adapter}". Try: express`);
  process.exit(2);
}
const tsx = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
const child = spawn(process.execPath, [tsx, '--conditions=@sessauth/source', 'src/server.ts'], { cwd: dir, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
