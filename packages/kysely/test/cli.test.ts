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

  it('usage errors exit 2, a URL that is no database URL included; a database error exits 1 with a message and no stack', async () => {
    expect((await runCli([])).code).toBe(2);
    expect((await runCli(['migrate'])).code).toBe(2);
    expect((await runCli(['frobnicate', '--url', url])).code).toBe(2);
    for (const [bad, says] of [
      ['oracle://db', '(got oracle:)'],
      ['pg://x', '(got pg:)'],
      ['localhost:5432', '(got localhost:)'],
      ['sqlite:', 'needs a path'],
      ['postgres://u@a:5432,b:5432/test', 'needs target_session_attrs=read-write'],
    ] as const) {
      const run = await runCli(['migrate', '--url', bad]);
      expect(run.code, bad).toBe(2);
      expect(run.stderr).toContain(says);
      expect(run.stderr).toContain('Usage: sessauth-kysely');
    }
    const bothDown = await runCli(['migrate', '--url', 'postgres://postgres:hunter2@127.0.0.1:1,127.0.0.1:2/test?target_session_attrs=read-write']);
    expect(bothDown.code).toBe(1);
    expect(bothDown.stderr).toContain('PostgreSQL at 127.0.0.1:1,127.0.0.1:2');
    expect(bothDown.stderr).not.toContain('hunter2');
    const down = await runCli(['migrate', '--url', 'postgres://postgres:hunter2@127.0.0.1:1/test']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^sessauth-kysely: /);
    expect(down.stderr).not.toContain('hunter2');
    expect(down.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe('sessauth-kysely CLI against a database that is down', () => {
  it.each([
    ['PostgreSQL', 'postgres://postgres:hunter2@127.0.0.1:1/test'],
    ['MySQL/MariaDB', 'mysql://root:hunter2@127.0.0.1:1/test'],
  ])(
    '%s: the message names the engine, host and port and what to check, never the password',
    async (engine, down) => {
      for (const command of ['migrate', 'purge']) {
        const run = await runCli([command, '--url', down]);
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(`${command} failed: ${engine} at 127.0.0.1:1`);
        expect(run.stderr).toContain(`is ${engine} running, and are the host and port in the URL right?`);
        expect(run.stderr).not.toContain('hunter2');
      }
    },
    60_000,
  );

  it('a database that does not exist is named as such, the default port filled in', async () => {
    const run = await runCli(['migrate', '--url', 'postgres://postgres@127.0.0.1/sessauth_no_such_database']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PostgreSQL at 127.0.0.1:5432');
    expect(run.stderr).toContain('the database named in the URL does not exist');
  }, 60_000);
});
