import { randomBytes } from 'node:crypto';
import { newSessionFixture, reachService } from '@sessauth/conformance';
import type { NewSession } from '@sessauth/core/store';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KyselySessionStore } from '../src/index.js';
import { migrationDdl } from '../src/ddl.js';
import { loginFunctionDdl, oneTripCreatePostgres } from '../src/postgres/login-function.js';
import { toInsertRow } from '../src/session-row.js';
import { tableNames } from '../src/schema.js';
import { POSTGRES_URL, postgresTarget, type TestDatabase } from './support/test-databases.js';

/**
 * A Kysely of its own (the store remembers per instance that the function is missing) that
 * records each statement it runs; its connections carry an application name of their own, so
 * pg_stat_activity tells them from every other test's.
 */
function recordingDb(config: pg.PoolConfig = {}): { db: Kysely<unknown>; statements: string[]; applicationName: string } {
  const statements: string[] = [];
  const applicationName = `sessauth-login-function-${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 10, application_name: applicationName, ...config });
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool }),
    // Refused statements too (Kysely logs them as errors).
    log: (event) => void statements.push(event.query.sql),
  });
  return { db, statements, applicationName };
}

/**
 * Whether a connection of `applicationName` comes to wait for an advisory lock within 4 s (under the test's 5). Asked
 * on a connection of its own, outside any transaction: a transaction sees pg_stat_activity as
 * it was when it first looked.
 */
async function waitsForAdvisoryLock(applicationName: string): Promise<boolean> {
  const observer = new pg.Client(POSTGRES_URL);
  await observer.connect();
  try {
    for (let waited = 0; waited < 4_000; waited += 20) {
      const { rows } = await observer.query<{ waiting: string }>(
        `select count(*) as waiting from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock' and wait_event = 'advisory'`,
        [applicationName],
      );
      if (Number(rows[0]?.waiting) > 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  } finally {
    await observer.end();
  }
}

/** A session row written outside the store, as another process's transaction would. */
async function insertRaw(client: pg.Client, table: string, session: NewSession): Promise<void> {
  const row = toInsertRow(session);
  const columns = Object.keys(row);
  await client.query(
    `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    Object.values(row),
  );
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

  // A fleet half upgraded: a process that met no function (started before 0009) keeps the
  // transaction; it and the function must take one lock, or two logins of one user could each
  // count the sessions without the other's and leave more than the cap active. Each test holds
  // the lock in an open transaction of one form and shows the other form waits for it, then
  // counts what the first committed.
  it('a login on the function waits for the lock the transaction holds, then evicts against what it committed', async (test) => {
    if (database === null || fresh === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
    const { tableName } = database;
    const store = new KyselySessionStore(fresh.db, { tableName });
    const userId = `held-by-transaction-${Date.now()}`;
    const base = Date.now();
    const [first, second, third, fourth] = logins(userId, base, 4) as [NewSession, NewSession, NewSession, NewSession];
    for (const session of [first, second]) await store.createSession({ session, maxActiveSessions: 2 });
    const holder = new pg.Client(POSTGRES_URL);
    await holder.connect();
    try {
      // What the transaction of statements does: the lock, then its insert, not yet committed.
      await holder.query('begin isolation level read committed');
      await holder.query('select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended($1::text, 0))', [`${tableName}:${userId}`]);
      await insertRaw(holder, tableName, third);
      fresh.statements.length = 0;
      const login = store.createSession({ session: fourth, maxActiveSessions: 2 });
      expect(await waitsForAdvisoryLock(fresh.applicationName)).toBe(true);
      await holder.query('commit');
      await login;
    } finally {
      await holder.end();
    }
    expect(fresh.statements.filter((statement) => statement.includes(tableNames(tableName).loginFunction))).toHaveLength(1);
    expect(await activeIds(store, userId, base)).toEqual([fourth.id, third.id]);
  });

  it('a login on the transaction waits for the lock the function holds, then evicts against what it committed', async (test) => {
    if (database === null || fresh === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
    const { db, tableName } = database;
    const names = tableNames(tableName);
    const ddl = loginFunctionDdl(names);
    const old = recordingDb();
    const holder = new pg.Client(POSTGRES_URL);
    await holder.connect();
    try {
      // The old process met no function, so it keeps its transaction of statements.
      await sql.raw(ddl.drop).execute(db);
      const oldStore = new KyselySessionStore(old.db, { tableName });
      await oldStore.createSession({ session: newSessionFixture(), maxActiveSessions: 2 });
      await sql.raw(ddl.create).execute(db);

      const userId = `held-by-function-${Date.now()}`;
      const base = Date.now();
      const [first, second, third, fourth] = logins(userId, base, 4) as [NewSession, NewSession, NewSession, NewSession];
      for (const session of [first, second]) await oldStore.createSession({ session, maxActiveSessions: 2 });
      // The function's login statement, inside a transaction left open: it holds the lock.
      await holder.query('begin isolation level read committed');
      const statement = oneTripCreatePostgres(names, toInsertRow(third), 2, 5000);
      await holder.query(statement.sql, [...statement.parameters]);
      old.statements.length = 0;
      const login = oldStore.createSession({ session: fourth, maxActiveSessions: 2 });
      expect(await waitsForAdvisoryLock(old.applicationName)).toBe(true);
      await holder.query('commit');
      await login;
      expect(old.statements.some((text) => text.includes('pg_advisory_xact_lock'))).toBe(true);
      expect(old.statements.some((text) => text.includes(names.loginFunction))).toBe(false);
      expect(await activeIds(oldStore, userId, base)).toEqual([fourth.id, third.id]);
    } finally {
      await sql.raw(ddl.create).execute(db);
      await holder.end();
      await old.db.destroy();
    }
  });

  it('under REPEATABLE READ the function refuses, and the transaction it falls back to reads at READ COMMITTED after the lock', async (test) => {
    if (database === null || fresh === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
    const { tableName } = database;
    const repeatable = recordingDb({ options: '-c default_transaction_isolation=repeatable\\ read' });
    const holder = new pg.Client(POSTGRES_URL);
    await holder.connect();
    try {
      const store = new KyselySessionStore(repeatable.db, { tableName });
      const userId = `repeatable-read-${Date.now()}`;
      const base = Date.now();
      const [first, second, third, fourth] = logins(userId, base, 4) as [NewSession, NewSession, NewSession, NewSession];
      for (const session of [first, second]) await store.createSession({ session, maxActiveSessions: 2 });
      // Another login holds the lock with its row not yet committed: a transaction reading at
      // REPEATABLE READ would read the snapshot it took before the lock was granted, miss that
      // row and leave three sessions active.
      await holder.query('begin isolation level read committed');
      await holder.query('select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended($1::text, 0))', [`${tableName}:${userId}`]);
      await insertRaw(holder, tableName, third);
      const login = store.createSession({ session: fourth, maxActiveSessions: 2 });
      expect(await waitsForAdvisoryLock(repeatable.applicationName)).toBe(true);
      await holder.query('commit');
      await login;
      // Tried once, refused, then the transaction for every login of this instance.
      expect(repeatable.statements.filter((text) => text.includes(tableNames(tableName).loginFunction))).toHaveLength(1);
      expect(repeatable.statements.filter((text) => text.includes('pg_advisory_xact_lock'))).toHaveLength(3);
      expect(await activeIds(store, userId, base)).toEqual([fourth.id, third.id]);
    } finally {
      await holder.end();
      await repeatable.db.destroy();
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

// The function keeps the search_path its migration ran with; the caller names the table its insert
// goes to. Two schemas on the caller's search_path, the function only in the second: without the
// check it revoked sessions in the second schema's table while the row went into the first, which
// then held more than the cap (found in review).
describe('a login function of another schema on the search_path', () => {
  it('refuses (SA002); the store keeps its transaction, and the cap in its own table', async (test) => {
    const admin = await reachService('PostgreSQL 127.0.0.1:5432', async () => {
      const client = new pg.Client(POSTGRES_URL);
      await client.connect();
      return client;
    });
    if (admin === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
    const suffix = randomBytes(4).toString('hex');
    const [first, second] = [`sessauth_fn_a_${suffix}`, `sessauth_fn_b_${suffix}`];
    const tableName = 'sessauth_session';
    const opened: Kysely<unknown>[] = [];
    const open = (searchPath: string) => {
      const recording = recordingDb({ options: `-c search_path=${searchPath}` });
      opened.push(recording.db);
      return recording;
    };
    try {
      // The exported DDL, run in each schema (Kysely's migrator takes a bookkeeping table of one
      // schema for the other's); the second schema's function is then dropped.
      const ddl = await migrationDdl('postgres', { tableName });
      await admin.query(`create schema ${first}; create schema ${second}`);
      await admin.query(
        `set search_path to ${first}; ${ddl}; set search_path to ${second}; ${ddl}; ${loginFunctionDdl(tableNames(tableName)).drop}; set search_path to default`,
      );
      const userId = `other-schema-${suffix}`;
      const base = Date.now();
      // An active session of the same user in the other schema's table, which must stay as it is.
      const [elsewhere, ...mine] = logins(userId, base, 4) as [NewSession, ...NewSession[]];
      await new KyselySessionStore(open(first).db, { tableName }).createSession({ session: elsewhere, maxActiveSessions: 1 });
      const caller = open(`${second},${first}`);
      const store = new KyselySessionStore(caller.db, { tableName });
      for (const session of mine) await store.createSession({ session, maxActiveSessions: 2 });
      // Tried once and refused, then the transaction for every login of this instance.
      expect(caller.statements.filter((text) => text.includes(tableNames(tableName).loginFunction))).toHaveLength(1);
      expect(await activeIds(store, userId, base)).toEqual(newestIds(mine, 2));
      const { rows } = await admin.query(`select expired_at from ${first}.${tableName} where id = $1`, [elsewhere.id]);
      expect(rows).toEqual([{ expired_at: null }]);
    } finally {
      for (const db of opened) await db.destroy();
      await admin.query(`drop schema if exists ${first} cascade; drop schema if exists ${second} cascade`);
      await admin.end();
    }
  });
});
