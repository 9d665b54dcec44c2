// The OpenAPI description as a user consumes it: `openapi-typescript` generates the types from the
// document the engine describes itself with, tsc compiles a small `openapi-fetch` client against them
// (fixture/client-flow.ts, no casts), and that client drives a real server on 127.0.0.1 through
// login, list, refresh, replay, delete, logout-all and a 415.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type AppUnderTest, createAdapterTestEngine, serveOnLoopback } from '@sessauth/conformance';
import type { Sessauth } from '@sessauth/core';
import { openApiDocument } from '@sessauth/core/openapi';
import { sessauthMiddleware } from '@sessauth/express';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** What fixture/client-flow.ts exports (its FlowResult, restated: the fixture compiles only once generated). */
interface ClientFlowModule {
  runClientFlow(
    baseUrl: string,
    username: string,
    password: string,
  ): Promise<{
    readonly sessionsListed: number;
    readonly refreshedAccessToken: string;
    readonly replay: { readonly status: number; readonly errorCode: string | undefined };
    readonly deletedStatus: number;
    readonly listedAfterDelete: number;
    readonly logoutAllStatus: number;
    readonly afterLogoutAll: { readonly status: number; readonly errorCode: string | undefined };
    readonly wrongMediaType: { readonly status: number; readonly errorCode: string | undefined };
  }>;
}
const require = createRequire(import.meta.url);
const FIXTURE = fileURLToPath(new URL('../fixture/', import.meta.url));
const GENERATED = join(FIXTURE, 'generated');

/** The command-line entry of an installed package, run with this Node. */
function binOf(pkg: string, bin: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  const entry = manifest.bin[bin];
  if (entry === undefined) throw new Error(`${pkg} has no bin ${bin}`);
  return join(dirname(manifestPath), entry);
}

/** tsc on the fixture project: its exit status and what it printed. */
async function typecheckFixture(): Promise<{ ok: boolean; output: string }> {
  try {
    await run(process.execPath, [binOf('typescript', 'tsc'), '-p', join(FIXTURE, 'tsconfig.json')]);
    return { ok: true, output: '' };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('a client generated with openapi-typescript + openapi-fetch', () => {
  let auth: Sessauth<{ id: string; username: string }>;
  let app: AppUnderTest;

  beforeAll(async () => {
    auth = await createAdapterTestEngine();
    const server = express();
    server.use(sessauthMiddleware(auth));
    app = await serveOnLoopback(server);
    // The running engine's own description, as a host serves it at /openapi.json.
    rmSync(GENERATED, { recursive: true, force: true });
    mkdirSync(GENERATED, { recursive: true });
    writeFileSync(join(GENERATED, 'openapi.json'), JSON.stringify(openApiDocument(auth.openApiSettings), null, 2));
    await run(process.execPath, [
      binOf('openapi-typescript', 'openapi-typescript'),
      join(GENERATED, 'openapi.json'),
      '-o',
      join(GENERATED, 'schema.d.ts'),
    ]);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    rmSync(GENERATED, { recursive: true, force: true });
  });

  it('typechecks with no casts, and tsc does refuse a call the description does not allow', async () => {
    const source = readFileSync(join(FIXTURE, 'client-flow.ts'), 'utf8');
    const code = source.replace(/\/\/.*$/gm, '');
    expect(code, 'an `as` cast').not.toMatch(/\)\s+as\s|\w\s+as\s+[A-Z{]/);
    expect(code, 'a non-null assertion').not.toMatch(/\w!\.|\)!/);
    expect(code, 'any').not.toMatch(/\bany\b/);
    expect(code, 'a ts-comment').not.toMatch(/@ts-/);
    const clean = await typecheckFixture();
    expect(clean.ok, clean.output).toBe(true);

    // The control: a login body without the password, a path the document lacks. Both must fail.
    writeFileSync(
      join(GENERATED, 'misuse.ts'),
      [
        "import createClient from 'openapi-fetch';",
        "import type { paths } from './schema.js';",
        "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });",
        "export const noPassword = client.POST('/auth/login/', { body: { username: 'alice' } });",
        "export const unknownPath = client.GET('/auth/users/');",
        '',
      ].join('\n'),
    );
    try {
      const misuse = await typecheckFixture();
      expect(misuse.ok).toBe(false);
      expect(misuse.output).toContain('misuse.ts(4,');
      expect(misuse.output).toContain('misuse.ts(5,');
    } finally {
      rmSync(join(GENERATED, 'misuse.ts'), { force: true });
    }
  });

  it('drives login, list, refresh, replay, delete, logout-all and the 415 against a real server', async () => {
    // Imported by a computed path: the package's own tsc must not follow it into types generated at run time.
    const flow = (await import(join(FIXTURE, 'client-flow.ts'))) as ClientFlowModule;
    const result = await flow.runClientFlow(app.baseUrl, 'alice', 'pw');
    expect(result.sessionsListed).toBe(3);
    expect(result.refreshedAccessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(result.replay).toEqual({ status: 401, errorCode: 'token_reuse_detected' });
    expect(result.deletedStatus).toBe(200);
    // The laptop's session ended with the replay, the tablet's by the delete: the phone's is left.
    expect(result.listedAfterDelete).toBe(1);
    expect(result.logoutAllStatus).toBe(200);
    expect(result.afterLogoutAll.status).toBe(401);
    expect(result.wrongMediaType).toEqual({ status: 415, errorCode: 'unsupported_media_type' });
  });
});
