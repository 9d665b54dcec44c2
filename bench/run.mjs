// `pnpm bench [options]`: runs bench/src/main.ts from its TypeScript source (the
// workspace packages too, through the `@sessauth/source` condition, so no build is needed).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const tsx = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
const main = fileURLToPath(new URL('./src/main.ts', import.meta.url));
const child = spawn(process.execPath, [tsx, '--conditions=@sessauth/source', main, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
