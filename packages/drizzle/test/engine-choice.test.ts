import Database from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as sqliteProxy } from 'drizzle-orm/sqlite-proxy';
import { createPool } from 'mysql2';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type DrizzleDatabase, DrizzleRateLimitStore, DrizzleSessionStore, type SessauthTables } from '../src/index.js';
import { sessauthMysqlTables } from '../src/mysql/schema.js';
import { sessauthPgTables } from '../src/pg/schema.js';
import { sessauthSqliteTables } from '../src/sqlite/schema.js';

// No connection is made: pools connect lazily, and choosing the engine reads no data.
const pool = new pg.Pool({ host: '127.0.0.1', port: 1 });
const mysqlPool = createPool({ host: '127.0.0.1', port: 1 });
const sqlite = new Database(':memory:');
afterAll(async () => {
  await pool.end();
  await mysqlPool.promise().end();
  sqlite.close();
});

describe('the store picks the engine of the database it is given', () => {
  it("takes a database typed with the app's own schema (the compiler checks it), and each dialect's default tables", () => {
    const stores = [
      new DrizzleSessionStore(drizzlePg(pool, { schema: { ...sessauthPgTables(), other: sessauthPgTables({ tableName: 'x' }).session } })),
      new DrizzleSessionStore(drizzleMysql(mysqlPool, { schema: { ...sessauthMysqlTables() }, mode: 'default' })),
      new DrizzleRateLimitStore(drizzleSqlite(sqlite, { schema: { ...sessauthSqliteTables() } })),
    ];
    expect(stores).toHaveLength(3);
  });

  it('refuses tables of another dialect (their SQL would be wrong), for both stores', () => {
    const cases: Array<[DrizzleDatabase, SessauthTables]> = [
      [drizzlePg(pool), sessauthSqliteTables()],
      [drizzleMysql(mysqlPool), sessauthPgTables()],
      [drizzleSqlite(sqlite), sessauthMysqlTables()],
    ];
    for (const [db, tables] of cases) {
      expect(() => new DrizzleSessionStore(db, { tables })).toThrow(/not of this database's dialect/);
      expect(() => new DrizzleRateLimitStore(db, { tables })).toThrow(/not of this database's dialect/);
    }
  });

  it('refuses MySQL tables without the user-lock table (the login cap needs it)', () => {
    const { session, rateLimit } = sessauthMysqlTables();
    expect(() => new DrizzleSessionStore(drizzleMysql(mysqlPool), { tables: { session, rateLimit } as unknown as SessauthTables })).toThrow(
      /user-lock table/,
    );
  });

  it('refuses an asynchronous SQLite driver: its transactions could interleave with other statements', () => {
    const proxied = sqliteProxy(async () => ({ rows: [] })) as unknown as DrizzleDatabase;
    expect(() => new DrizzleSessionStore(proxied)).toThrow(/synchronous driver/);
  });

  it('refuses something that is not a drizzle database', () => {
    expect(() => new DrizzleSessionStore({} as DrizzleDatabase)).toThrow(/not a drizzle database/);
  });

  it('refuses bad options: table names that are not identifiers, a MySQL collation that is not binary, a bad batch or deadline', () => {
    expect(() => sessauthPgTables({ tableName: 'x; drop table users' })).toThrow(/table name must match/);
    expect(() => sessauthMysqlTables({ collation: 'utf8mb4_general_ci' })).toThrow(/binary utf8mb4 collation/);
    expect(() => new DrizzleSessionStore(drizzleSqlite(sqlite), { purgeBatchSize: 0 })).toThrow(/purgeBatchSize/);
    expect(() => new DrizzleSessionStore(drizzleSqlite(sqlite), { operationTimeoutMs: -1 })).toThrow(/operationTimeoutMs/);
  });
});
