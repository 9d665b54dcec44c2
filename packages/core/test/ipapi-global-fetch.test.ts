import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_ANSWERS, LONDON, PUBLIC_IP } from './helpers/hostile-geo-answers.js';
import { json, startLocalHttpsServer, type LocalHttpsServer } from './helpers/local-https-server.js';

const TSX = createRequire(import.meta.url).resolve('tsx/cli');
const CHILD = fileURLToPath(new URL('./helpers/ipapi-child.ts', import.meta.url));

let server: LocalHttpsServer;
let caDir: string;
beforeAll(async () => {
  server = await startLocalHttpsServer();
  caDir = mkdtempSync(join(tmpdir(), 'sessauth-ca-'));
  writeFileSync(join(caDir, 'ca.pem'), server.certificate);
});
afterAll(async () => {
  await server.close();
  rmSync(caDir, { recursive: true, force: true });
});

/** One lookup by the default provider (global fetch) in a child process that trusts the server. */
async function lookupInChild(): Promise<{ location?: unknown; error?: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, [TSX, '--conditions=@sessauth/source', CHILD], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem'), IPAPI_BASE_URL: server.origin, LOOKUP_IP: PUBLIC_IP },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { location?: unknown; error?: string };
}

describe("ipapi provider with Node's own fetch (no injected fetch)", () => {
  it('reads a good answer', async () => {
    server.respond = (_req, res) => json(res, LONDON);
    expect(await lookupInChild()).toEqual({ location: expect.objectContaining({ city: 'London', country_code: 'GB' }) });
  });

  it("does not follow a redirect (Node's fetch would by default)", async () => {
    server.requests.length = 0;
    server.respond = HOSTILE_ANSWERS['a redirect']![0];
    expect(await lookupInChild()).toEqual({ error: 'geolocation answer with status 302' });
    expect(server.requests).toEqual([`/${PUBLIC_IP}/json/`]);
  });

  it('stops at the byte bound after decompression', async () => {
    server.respond = HOSTILE_ANSWERS['a small gzip answer that inflates to 5 MB']![0];
    expect(await lookupInChild()).toEqual({ error: 'response too large' });
  });
}, 120_000);
