import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reachService } from '@sessauth/conformance';
import { postgresLoginFunctionDdl } from '@sessauth/core/store';
import Database from 'better-sqlite3';
import { getTableName, sql, type Table } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { createPool } from 'mysql2';
import pg from 'pg';
import type { DrizzleDatabase, SessauthTables } from '../../src/index.js';
import { sessauthMysqlTables } from '../../src/mysql/schema.js';
import { sessauthPgLoginFunction, sessauthPgTables } from '../../src/pg/schema.js';
import { sessauthSqliteTables } from '../../src/sqlite/schema.js';
import type { RowQuery } from './describe-schema.js';
import { type Dialect, drizzleKitDdl } from './drizzle-kit-ddl.js';

export const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** One connection pool (or SQLite connection) as drizzle, and how to close it. */
export interface Connection {
  readonly db: DrizzleDatabase;
  close(): Promise<void>;
}

/** Tables of this run (unique names), created from drizzle-kit's own migration SQL. */
export interface TestDatabase extends Connection {
  readonly dialect: Dialect;
  readonly tables: SessauthTables;
  /** Another pool (or connection) over the same database: a second app server. */
  connect(): Promise<Connection>;
  /** Runs one SQL statement on the database (to break or inspect the schema). */
  execute(statement: string): Promise<void>;
  /** Runs one query outside drizzle and hands back its rows. */
  rows: RowQuery;
  /** The database as a `@sessauth/kysely` URL (`sqlite:<file>` for SQLite). */
  readonly url: string;
}

export interface TestTarget {
  readonly label: string;
  readonly dialect: Dialect;
  /** null (and a loud line) when the server is unreachable, unless CI requires it. */
  open(): Promise<TestDatabase | null>;
}

function connector(dialect: Dialect, location: string): () => Promise<Connection & { run(statement: string): Promise<void>; rows: RowQuery }> {
  return async () => {
    if (dialect === 'postgres') {
      // >= 10 connections, so the rotation race and the login-cap race are real races.
      const pool = new pg.Pool({ connectionString: location, max: 20, connectionTimeoutMillis: 5000 });
      pool.on('error', () => undefined);
      await pool.query('select 1');
      return {
        db: drizzlePg(pool),
        close: () => pool.end(),
        run: async (statement) => void (await pool.query(statement)),
        rows: async (sql, parameters) => (await pool.query(sql, parameters)).rows,
      };
    }
    if (dialect === 'mysql') {
      const pool = createPool({ uri: location, connectionLimit: 20, connectTimeout: 5000 });
      await pool.promise().query('select 1');
      return {
        db: drizzleMysql(pool),
        close: () => pool.promise().end(),
        run: async (statement) => void (await pool.promise().query(statement)),
        rows: async (sql, parameters) => (await pool.promise().query(sql, parameters))[0] as Array<Record<string, unknown>>,
      };
    }
    // As the README advises: WAL, and no busy wait in the driver (the store retries SQLITE_BUSY).
    const database = new Database(location, { timeout: 0 });
    database.pragma('journal_mode = WAL');
    return {
      db: drizzleSqlite(database),
      close: async () => {
        database.close();
      },
      run: async (statement) => void database.exec(statement),
      rows: async (sql, parameters) => database.prepare(sql).all(...(parameters ?? [])) as Array<Record<string, unknown>>,
    };
  };
}

/** MariaDB has no utf8mb4_0900_bin; MySQL 8 has no utf8mb4_nopad_bin. */
async function binaryCollation(db: DrizzleDatabase): Promise<string> {
  const [rows] = (await (db as unknown as { execute(q: unknown): Promise<unknown> }).execute(sql`select version() as v`)) as [Array<{ v: string }>];
  return /mariadb/i.test(rows[0]?.v ?? '') ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin';
}

async function openTables(dialect: Dialect, location: string, cleanup: () => void = () => undefined): Promise<TestDatabase> {
  const connect = connector(dialect, location);
  const first = await connect();
  const suffix = randomBytes(4).toString('hex');
  const names = { tableName: `sessauth_session_${suffix}`, rateLimitTableName: `sessauth_rate_limit_${suffix}` };
  try {
    const tables: SessauthTables =
      dialect === 'postgres'
        ? sessauthPgTables(names)
        : dialect === 'mysql'
          ? sessauthMysqlTables({ ...names, collation: await binaryCollation(first.db) })
          : sessauthSqliteTables(names);
    for (const statement of await drizzleKitDdl(dialect, { ...tables })) await first.run(statement);
    // The custom migration the README asks for on PostgreSQL: logins in one statement.
    if (dialect === 'postgres') await first.run(sessauthPgLoginFunction(names));
    return {
      db: first.db,
      dialect,
      tables,
      connect,
      execute: first.run,
      rows: first.rows,
      url: dialect === 'sqlite' ? `sqlite:${location}` : location,
      async close() {
        try {
          for (const table of Object.values(tables) as Table[]) await first.run(`drop table if exists ${quote(dialect, getTableName(table))}`);
          if (dialect === 'postgres') await first.run(postgresLoginFunctionDdl(names.tableName).drop);
        } finally {
          await first.close();
          cleanup();
        }
      },
    };
  } catch (error) {
    await first.close();
    cleanup();
    throw error;
  }
}

export const quote = (dialect: Dialect, name: string): string => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`);

export const postgresTarget: TestTarget = {
  label: 'PostgreSQL 127.0.0.1:5432 (node-postgres)',
  dialect: 'postgres',
  open: () => reachService('PostgreSQL 127.0.0.1:5432', () => openTables('postgres', POSTGRES_URL)),
};

export const mysqlTarget: TestTarget = {
  label: 'MariaDB 127.0.0.1:3306 (mysql2)',
  dialect: 'mysql',
  open: () => reachService('MariaDB/MySQL 127.0.0.1:3306', () => openTables('mysql', MYSQL_URL)),
};

export const sqliteTarget: TestTarget = {
  label: 'SQLite file (better-sqlite3)',
  dialect: 'sqlite',
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sessauth-drizzle-'));
    return openTables('sqlite', join(dir, 'sessions.db'), () => rmSync(dir, { recursive: true, force: true }));
  },
};

export const ALL_TARGETS: readonly TestTarget[] = [postgresTarget, mysqlTarget, sqliteTarget];
