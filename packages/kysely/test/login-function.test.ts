import { newSessionFixture } from '@sessauth/conformance';
import type { NewSession } from '@sessauth/core/store';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KyselySessionStore } from '../src/index.js';
import { loginFunctionDdl } from '../src/postgres/login-function.js';
import { tableNames } from '../src/schema.js';
import { POSTGRES_URL, postgresTarget, type TestDatabase } from './support/test-databases.js';

/** A Kysely of its own (the store remembers per instance that the function is missing) that records each statement it runs. */
function recordingDb(): { db: Kysely<unknown>; statements: string[] } {
  const statements: string[] = [];
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: POSTGRES_URL, max: 10 }) }),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query.sql);
    },
  });
  return { db, statements };
}

const MINUTE = 60_000;

function logins(userId: string, base: number, count: number): NewSession[] {
  return Array.from({ length: count }, (_, i) => newSessionFixture({ userId, createdAt: new Date(base + i) }));
}

/** Ids of the user's active sessions, newest first. */
async function activeIds(store: KyselySessionStore<unknown>, userId: string, base: number): Promise<string[]> {
  return (await store.listActiveSessions(userId, new Date(base + MINUTE))).map((session) => session.id);
}

function newestIds(sessions: readonly NewSession[], count: number): string[] {
  return [...sessions]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .slice(0, count)
    .map((session) => session.id);
}

describe('login in one statement on PostgreSQL (migration 0009-login-function)', () => {
  let database: TestDatabase | null = null;
  let fresh: ReturnType<typeof recordingDb> | null = null;
  beforeAll(async () => {
    database = await postgresTarget.open();
    if (database !== null) fresh = recordingDb();
  });
  afterAll(async () => {
    await fresh?.db.destroy();
    await database?.close();
  });

  it('a login is one statement: the function, then the insert', async (test) => {
    if (database === null || fresh === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
    const store = new KyselySessionStore(fresh.db, { tableName: database.tableName });
    const userId = `u-${Date.now()}`;
    await store.createSession({ session: newSessionFixture({ userId }), maxActiveSessions: 3 });
    fresh.statements.length = 0;
    const created = await store.createSession({ session: newSessionFixture({ userId }), maxActiveSessions: 3 });
    expect(fresh.statements).toHaveLength(1);
    expect(fresh.statements[0]).toContain(`"${tableNames(database.tableName).loginFunction}"(`);
    expect(created.expiredAt).toBeNull();
  });

  it('a fleet half upgraded: logins over a process still on the transaction and one on the function keep the cap', async (test) => {
    if (database === null || fresh === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
    const { db, tableName } = database;
    const ddl = loginFunctionDdl(tableNames(tableName));
    const old = recordingDb();
    try {
      // The old process met no function (before 0009), and keeps its transaction of statements.
      await sql.raw(ddl.drop).execute(db);
      const oldStore = new KyselySessionStore(old.db, { tableName });
      const first = newSessionFixture();
      await oldStore.createSession({ session: first, maxActiveSessions: 3 });
      expect((await oldStore.findSession(first.id))?.id).toBe(first.id);
      await sql.raw(ddl.create).execute(db);
      old.statements.length = 0;
      await oldStore.createSession({ session: newSessionFixture(), maxActiveSessions: 3 });
      expect(old.statements.some((statement) => statement.includes('pg_advisory_xact_lock'))).toBe(true);
      expect(old.statements.some((statement) => statement.includes(tableNames(tableName).loginFunction))).toBe(false);

      const newStore = new KyselySessionStore(fresh.db, { tableName });
      for (let round = 0; round < 8; round += 1) {
        const userId = `fleet-${round}-${Date.now()}`;
        const base = Date.now();
        const sessions = logins(userId, base, 12);
        // Shuffled, so a newcomer may be older than sessions already in; alternately over each process.
        const started = [...sessions].sort(() => Math.random() - 0.5);
        await Promise.all(started.map((session, i) => (i % 2 === 0 ? oldStore : newStore).createSession({ session, maxActiveSessions: 3 })));
        expect(await activeIds(newStore, userId, base), `round ${round}`).toEqual(newestIds(sessions, 3));
      }
    } finally {
      await sql.raw(ddl.create).execute(db);
      await old.db.destroy();
    }
  });

  it('a newcomer older than the cap allows is stored revoked at its own login time, by the function', async (test) => {
    if (database === null || fresh === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
    const store = new KyselySessionStore(fresh.db, { tableName: database.tableName });
    const userId = `late-${Date.now()}`;
    const base = Date.now();
    const [late, ...newer] = logins(userId, base, 3);
    for (const session of newer) await store.createSession({ session, maxActiveSessions: 2 });
    if (late === undefined) throw new Error('no session');
    fresh.statements.length = 0;
    const created = await store.createSession({ session: late, maxActiveSessions: 2 });
    expect(fresh.statements).toHaveLength(1);
    expect(created.expiredAt?.getTime()).toBe(late.createdAt.getTime());
    expect((await store.findSession(late.id))?.expiredAt?.getTime()).toBe(late.createdAt.getTime());
    expect(await activeIds(store, userId, base)).toEqual(newestIds(newer, 2));
  });
});
