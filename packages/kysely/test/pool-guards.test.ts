import { reachService } from '@sessauth/conformance';
import { Kysely, MysqlDialect, PostgresDialect, sql } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { QueryDeadlineError, guardMysqlPool, guardPostgresPool, type MysqlExecutePool } from '../src/index.js';
import { MYSQL_URL, POSTGRES_URL } from './support/test-databases.js';

// A statement that outlives the guard's bound ends its connection: the next
// checkout gets another one (a one-connection pool makes that visible).
describe('pool guards: a connection that missed its deadline never serves again', () => {
  it('PostgreSQL: the client is ended and pg-pool drops it', async (test) => {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
    pool.on('error', () => undefined);
    const db = await reachService('PostgreSQL 127.0.0.1:5432', async () => {
      const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: guardPostgresPool(pool, { queryTimeoutMs: 300 }) }) });
      await sql`select 1`.execute(kysely);
      return kysely;
    });
    if (db === null) return test.skip('its server is unreachable (named in the skip line above)');
    try {
      const backend = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]?.pid;
      const before = await backend();
      const error = await sql`select pg_sleep(5)`.execute(db).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryDeadlineError);
      expect(pool.totalCount).toBe(0);
      const after = await backend();
      expect(after).not.toBe(before);
      expect(pool.totalCount).toBe(1);
    } finally {
      await db.destroy();
    }
  });

  it('MySQL/MariaDB: the connection is destroyed and leaves the pool', async (test) => {
    const pool = createPool({ uri: MYSQL_URL, connectionLimit: 1 });
    const db = await reachService('MariaDB/MySQL 127.0.0.1:3306', async () => {
      const kysely = new Kysely<unknown>({ dialect: new MysqlDialect({ pool: guardMysqlPool(pool, { queryTimeoutMs: 300 }) }) });
      await sql`select 1`.execute(kysely);
      return kysely;
    });
    if (db === null) return test.skip('its server is unreachable (named in the skip line above)');
    try {
      const connection = async () => (await sql<{ id: number }>`select connection_id() as id`.execute(db)).rows[0]?.id;
      const before = await connection();
      const error = await sql`select sleep(5)`.execute(db).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryDeadlineError);
      const after = await connection();
      expect(after).not.toBe(before);
    } finally {
      await db.destroy();
    }
  });

  it('MySQL/MariaDB: a prepared statement (execute, the guard read) is bounded the same way', async (test) => {
    const pool = createPool({ uri: MYSQL_URL, connectionLimit: 1 });
    const guarded = guardMysqlPool(pool, { queryTimeoutMs: 300 });
    const run = (text: string) =>
      new Promise<unknown>((resolve, reject) =>
        (guarded as MysqlExecutePool).getConnection((error, connection) => {
          if (error) return reject(error);
          const execute = connection.execute as (s: string, v: unknown[], cb: (e: unknown, r: unknown) => void) => void;
          execute.call(connection, text, [], (failure, rows) => {
            connection.release();
            failure ? reject(failure) : resolve(rows);
          });
        }),
      );
    const first = await reachService('MariaDB/MySQL 127.0.0.1:3306', () => run('select connection_id() as id'));
    if (first === null) return test.skip('its server is unreachable (named in the skip line above)');
    try {
      const error = await run('select sleep(5)').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryDeadlineError);
      const after = (await run('select connection_id() as id')) as { id: number }[];
      expect(after[0]?.id).not.toBe((first as { id: number }[])[0]?.id);
    } finally {
      await new Promise((resolve) => pool.end(resolve));
    }
  });

  it('MySQL/MariaDB: the wait for a free connection is bounded too', async (test) => {
    const pool = createPool({ uri: MYSQL_URL, connectionLimit: 1 });
    const db = await reachService('MariaDB/MySQL 127.0.0.1:3306', async () => {
      const kysely = new Kysely<unknown>({ dialect: new MysqlDialect({ pool: guardMysqlPool(pool, { queryTimeoutMs: 400 }) }) });
      await sql`select 1`.execute(kysely);
      return kysely;
    });
    if (db === null) return test.skip('its server is unreachable (named in the skip line above)');
    try {
      // The only connection is held by a transaction that waits on our signal.
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const holder = db.connection().execute(async (conn) => {
        await sql`select 1`.execute(conn);
        await held;
      });
      const waiting = await sql`select 1`.execute(db).catch((e: unknown) => e);
      expect(waiting).toBeInstanceOf(QueryDeadlineError);
      expect((waiting as Error).message).toMatch(/wait for a MySQL connection/);
      release();
      await holder;
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('rejects a deadline that is not a positive number', () => {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL });
    expect(() => guardPostgresPool(pool, { queryTimeoutMs: 0 })).toThrow(TypeError);
    expect(() => guardPostgresPool(pool, { queryTimeoutMs: Number.NaN })).toThrow(TypeError);
    void pool.end();
  });
});
