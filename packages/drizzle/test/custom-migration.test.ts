import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newSessionFixture, reachService } from '@sessauth/conformance';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleSessionStore } from '../src/index.js';

// The README's PostgreSQL step, run as a user runs it: drizzle-kit generates the tables' migration,
// then an empty custom one, the README's `node -e` line appends the login function to it (copied
// from the README, only the file name filled in), drizzle-kit migrate applies both to a database of
// its own. Then the store's login is one statement that calls the function and keeps the cap.
// Runs on the built package (`@sessauth/drizzle/pg` resolves to dist), as an installed one would.

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The README's line that appends the function to the custom migration. */
function readmeLine(): string {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const line = readme.split('\n').find((text) => text.startsWith('node -e ') && text.includes('sessauthPgLoginFunction'));
  if (line === undefined) throw new Error('the README has no `node -e` line for sessauthPgLoginFunction');
  return line;
}

/** A user's project: its schema re-exports the package's tables; the packages it installed are linked in. */
function userProject(url: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sessauth-drizzle-kit-'));
  mkdirSync(join(dir, 'node_modules', '@sessauth'), { recursive: true });
  for (const name of ['drizzle-kit', 'drizzle-orm', 'pg'])
    symlinkSync(realpathSync(join(packageDir, 'node_modules', name)), join(dir, 'node_modules', name));
  symlinkSync(packageDir, join(dir, 'node_modules', '@sessauth', 'drizzle'));
  symlinkSync(realpathSync(join(packageDir, 'node_modules', '@sessauth', 'core')), join(dir, 'node_modules', '@sessauth', 'core'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'user-app', private: true, type: 'module' }));
  writeFileSync(join(dir, 'schema.ts'), "export * from '@sessauth/drizzle/pg';\n");
  writeFileSync(
    join(dir, 'drizzle.config.ts'),
    `import { defineConfig } from 'drizzle-kit';\nexport default defineConfig({ dialect: 'postgresql', schema: './schema.ts', out: './drizzle', dbCredentials: { url: ${JSON.stringify(url)} } });\n`,
  );
  return dir;
}

describe("@sessauth/drizzle's README on PostgreSQL: the custom migration of the login function", () => {
  let admin: pg.Client | null = null;
  let database = '';
  let project = '';
  let pool: pg.Pool | null = null;

  beforeAll(async () => {
    admin = await reachService('PostgreSQL 127.0.0.1:5432', async () => {
      const client = new pg.Client(ADMIN_URL);
      await client.connect();
      // A connection ended by the server while idle (the teardown's forced drop, a restart) is not this test's failure.
      client.on('error', () => undefined);
      return client;
    });
    if (admin === null) return;
    database = `sessauth_kit_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${database}`);
    const url = `postgres://postgres@127.0.0.1:5432/${database}`;
    project = userProject(url);
    const kit = (...args: string[]) =>
      execFileSync(process.execPath, [join(project, 'node_modules', 'drizzle-kit', 'bin.cjs'), ...args], { cwd: project, stdio: 'pipe' });
    kit('generate');
    kit('generate', '--custom', '--name', 'sessauth-login-function');
    const custom = readdirSync(join(project, 'drizzle')).find((file) => file.endsWith('_sessauth-login-function.sql'));
    if (custom === undefined) throw new Error('drizzle-kit made no custom migration');
    execFileSync('sh', ['-c', readmeLine().replace('drizzle/<n>_sessauth-login-function.sql', `drizzle/${custom}`)], { cwd: project, stdio: 'pipe' });
    kit('migrate');
    pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on('error', () => undefined);
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    if (admin !== null) {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
    if (project !== '') rmSync(project, { recursive: true, force: true });
  });

  it('drizzle-kit migrate creates the function, keeping its search_path', async (test) => {
    if (pool === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
    const { rows } = await pool.query<{ config: string[] | null }>(
      `select proconfig as config from pg_proc where oid = to_regprocedure('sessauth_session_evict_beyond_cap(text, text, text, bigint, integer, regclass, integer)')`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.config?.some((setting) => setting.startsWith('search_path='))).toBe(true);
  });

  it('a login is then one statement, and the cap holds', async (test) => {
    if (pool === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
    const statements: string[] = [];
    const store = new DrizzleSessionStore(drizzle(pool, { logger: { logQuery: (query) => void statements.push(query) } }));
    const userId = `kit-${randomBytes(4).toString('hex')}`;
    const base = Date.now();
    const sessions = [0, 1, 2].map((i) => newSessionFixture({ userId, createdAt: new Date(base + i) }));
    for (const session of sessions) {
      statements.length = 0;
      await store.createSession({ session, maxActiveSessions: 2 });
      expect(statements).toHaveLength(1);
      expect(statements[0]).toContain('"sessauth_session_evict_beyond_cap"(');
    }
    const active = await store.listActiveSessions(userId, new Date(base + 60_000));
    expect(active.map((session) => session.id)).toEqual([sessions[2]?.id, sessions[1]?.id]);
  });
});
