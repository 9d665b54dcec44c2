import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { startExample } from '../../../examples/cloudflare/scripts/dev.mjs';
import { EXAMPLE_ENV, exerciseExample } from '../src/example-flow.js';
import { startRuntimeProcess } from '../src/runtime-process.js';
import { freePort } from '@sessauth/test-support';

const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const example = (name: string) => fileURLToPath(new URL(`../../../examples/${name}/src/`, import.meta.url));

/** Runs an example server as its README says, on a free port, until its "listening" line. */
async function serveExample(command: string[], port: number): Promise<{ close(): Promise<void> }> {
  return startRuntimeProcess(command, { ...EXAMPLE_ENV, PORT: String(port) }, /listening on (\S+)/);
}

describe('the runtime examples, run as their READMEs say', () => {
  it('examples/bun: Bun.serve, native argon2id, the address from server.requestIP', async () => {
    const port = await freePort();
    const server = await serveExample([bin('bun'), '--conditions=@sessauth/source', `${example('bun')}server.ts`], port);
    try {
      await exerciseExample(`http://127.0.0.1:${port}`);
    } finally {
      await server.close();
    }
  });

  it('examples/deno: Deno.serve, WASM argon2id, the address from info.remoteAddr', async () => {
    const port = await freePort();
    const flags = ['--sloppy-imports', '--conditions=@sessauth/source', '--allow-net', '--allow-env', '--allow-read', '--allow-sys'];
    const server = await serveExample([bin('deno'), 'run', ...flags, `${example('deno')}main.ts`], port);
    try {
      await exerciseExample(`http://127.0.0.1:${port}`);
    } finally {
      await server.close();
    }
  });

  it('examples/cloudflare: workerd, WASM argon2id, CF-Connecting-IP, throttling in a Durable Object', async () => {
    const { url, close } = await startExample({ port: await freePort(), vars: EXAMPLE_ENV });
    try {
      await exerciseExample(url.origin);
    } finally {
      await close();
    }
  });
});
