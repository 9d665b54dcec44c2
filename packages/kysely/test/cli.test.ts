import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newSessionFixture } from '@sessauth/conformance';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KyselySessionStore } from '../src/index.js';
import { openKyselyFromUrl } from '../src/open-from-url.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs src/cli.ts the way an operator runs the bin, through tsx (no build needed). */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const nodeArgs = ['--conditions=@sessauth/source', '--import', 'tsx', 'src/cli.ts', ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, nodeArgs, { cwd: packageDir, env: { ...process.env, DATABASE_URL: '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr });
    });
  });
}

async function tablesOf(url: string): Promise<string[]> {
  const opened = await openKyselyFromUrl(url);
  try {
    const result = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(opened.db);
    return result.rows.map((row) => row.name);
  } finally {
    await opened.destroy();
  }
}

describe('sessauth-kysely CLI on a SQLite file', () => {
  let dir: string;
  let url: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sessauth-cli-'));
    url = `sqlite:${join(dir, 'auth.db')}`;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('migrate creates the tables, and a second migrate applies nothing', async () => {
    const first = await runCli(['migrate', '--url', url]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain('applied 0001-create-session, 0002-create-rate-limit');
    expect(await tablesOf(url)).toEqual(expect.arrayContaining(['sessauth_session', 'sessauth_rate_limit']));
    const second = await runCli(['migrate', '--url', url]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('already up to date');
  }, 30_000);

  it('honours --table and --rate-limit-table, and reads DATABASE_URL when --url is absent', async () => {
    const run = await runCli(['migrate', '--table', 'my_sessions', '--rate-limit-table', 'my_limits'], { DATABASE_URL: url });
    expect(run.code).toBe(0);
    expect(await tablesOf(url)).toEqual(expect.arrayContaining(['my_sessions', 'my_limits', 'my_sessions_migration']));
  }, 30_000);

  it('purge deletes revoked and ended sessions and keeps active ones', async () => {
    expect((await runCli(['migrate', '--url', url])).code).toBe(0);
    const opened = await openKyselyFromUrl(url);
    const store = new KyselySessionStore(opened.db);
    const now = Date.now();
    const active = newSessionFixture();
    const revoked = newSessionFixture();
    const ended = newSessionFixture({ createdAt: new Date(now - 7200_000), expiresAt: new Date(now - 3600_000) });
    for (const session of [active, revoked, ended]) await store.createSession({ session, maxActiveSessions: 5 });
    await store.expireSession(revoked.id, revoked.userId, new Date(now - 1000));
    await opened.destroy();

    const run = await runCli(['purge', '--url', url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('purged 2 sessions');

    const reopened = await openKyselyFromUrl(url);
    const after = new KyselySessionStore(reopened.db);
    expect(await after.findSession(active.id)).not.toBeNull();
    expect(await after.findSession(revoked.id)).toBeNull();
    expect(await after.findSession(ended.id)).toBeNull();
    await reopened.destroy();
  }, 30_000);

  it('usage errors exit 2; a database error exits 1 with a message and no stack', async () => {
    expect((await runCli([])).code).toBe(2);
    expect((await runCli(['migrate'])).code).toBe(2);
    expect((await runCli(['frobnicate', '--url', url])).code).toBe(2);
    const badScheme = await runCli(['migrate', '--url', 'oracle://db']);
    expect(badScheme.code).toBe(1);
    expect(badScheme.stderr).toContain('unsupported database URL');
    const down = await runCli(['migrate', '--url', 'postgres://postgres:hunter2@127.0.0.1:1/test']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^sessauth-kysely: /);
    expect(down.stderr).not.toContain('hunter2');
    expect(down.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
