import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startExample } from './support/example-process.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Each ORM example, with the name of its users table. */
const EXAMPLES = [
  { name: 'drizzle', usersTable: 'users' },
  { name: 'prisma', usersTable: 'User' },
] as const;

const ENV = {
  SESSAUTH_DEMO_USERS: 'alice:alice-password-1',
  JWT_REFRESH_TOKEN_TRANSPORT: 'body',
  JWT_LOGIN_THROTTLE_RATE: '100/min',
};

async function call(url: string, body: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

describe.each(EXAMPLES)('the $name example keeps users and sessions in its own database', ({ name, usersTable }) => {
  const dir = mkdtempSync(join(tmpdir(), `sessauth-example-${name}-`));
  const file = join(dir, 'app.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('login, refresh, /me and a refused replay; the rows are in its tables; they outlive a restart; a password change ends them', async () => {
    const env = { ...ENV, SESSAUTH_STORE: `sqlite:${file}` };
    const login = (baseUrl: string, password = 'alice-password-1') => call(`${baseUrl}/auth/login/`, { username: 'alice', password });
    const refresh = (baseUrl: string, token: unknown) => call(`${baseUrl}/auth/refresh/`, { refresh_token: token });
    let example = await startExample(name, env);
    let kept: unknown;
    try {
      const first = await login(example.baseUrl);
      expect(first.status).toBe(200);
      const refreshed = await refresh(example.baseUrl, first.body.refresh_token);
      expect(refreshed.status).toBe(200);
      const me = await fetch(`${example.baseUrl}/me`, { headers: { authorization: `Bearer ${String(refreshed.body.access_token)}` } });
      expect(await me.json()).toMatchObject({ user: { id: 'user-alice', username: 'alice' } });
      expect(await refresh(example.baseUrl, first.body.refresh_token)).toMatchObject({ status: 401, body: { error_code: 'token_reuse_detected' } });
      const second = await login(example.baseUrl);
      expect(second.status).toBe(200);
      kept = second.body.refresh_token;

      // The app's user and sessauth's sessions, side by side in the one database the ORM manages:
      // the replayed session revoked, the second one active.
      const database = new Database(file, { readonly: true });
      try {
        expect(database.prepare(`select count(*) as n from "${usersTable}" where username = 'alice'`).get()).toEqual({ n: 1 });
        const sessions = database.prepare("select expired_at from sessauth_session where user_id = 'user-alice' order by created_at").all();
        expect(sessions).toEqual([{ expired_at: expect.any(Number) }, { expired_at: null }]);
      } finally {
        database.close();
      }
    } finally {
      await example.stop();
    }

    // A restart on the same database: the second session is still there (its refresh token from
    // before refreshes), and a password change ends every session of the user.
    example = await startExample(name, env);
    try {
      const survived = await refresh(example.baseUrl, kept);
      expect(survived.status).toBe(200);
      const change = await call(
        `${example.baseUrl}/me/password`,
        { current_password: 'alice-password-1', new_password: 'alice-password-2' },
        String(survived.body.access_token),
      );
      expect(change.status).toBe(200);
      expect((await refresh(example.baseUrl, survived.body.refresh_token)).status).toBe(401);
      expect((await login(example.baseUrl, 'alice-password-2')).status).toBe(200);
    } finally {
      await example.stop();
    }
  });
});

describe('the Prisma example adds the files @sessauth/prisma ships, unchanged', () => {
  it("prisma/sessauth.prisma and its sessauth migrations are the package's SQLite model block and migrations", () => {
    const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
    expect(read('examples/prisma/prisma/sessauth.prisma')).toBe(read('packages/prisma/prisma/sqlite/sessauth.prisma'));
    expect(read('examples/prisma/prisma/migrations/20261201000100_sessauth/migration.sql')).toBe(
      read('packages/prisma/prisma/sqlite/migrations/0001_sessauth_init/migration.sql'),
    );
    expect(read('examples/prisma/prisma/migrations/20261201000200_sessauth_session_authentication/migration.sql')).toBe(
      read('packages/prisma/prisma/sqlite/migrations/0002_sessauth_session_authentication/migration.sql'),
    );
    expect(read('examples/prisma/prisma/migrations/20261201000300_sessauth_dpop/migration.sql')).toBe(
      read('packages/prisma/prisma/sqlite/migrations/0003_sessauth_dpop/migration.sql'),
    );
    expect(read('examples/prisma/prisma/migrations/20261201000400_sessauth_device_bound/migration.sql')).toBe(
      read('packages/prisma/prisma/sqlite/migrations/0006_sessauth_device_bound/migration.sql'),
    );
  });
});
