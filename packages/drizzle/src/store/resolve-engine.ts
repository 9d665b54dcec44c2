import { is, type Table } from 'drizzle-orm';
import { MySqlDatabase, MySqlTable } from 'drizzle-orm/mysql-core';
import { PgDatabase, PgTable } from 'drizzle-orm/pg-core';
import { BaseSQLiteDatabase, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type AnyMysqlDatabase, mysqlEngine } from '../mysql/mysql-engine.js';
import {
  type SessauthMysqlTables,
  sessauthMysqlTables,
  sessauthRateLimit as mysqlRateLimit,
  sessauthSession as mysqlSession,
  sessauthSessionUserLock,
} from '../mysql/schema.js';
import { type AnyPgDatabase, postgresEngine } from '../pg/pg-engine.js';
import { type SessauthPgTables, sessauthPgTables, sessauthRateLimit as pgRateLimit, sessauthSession as pgSession } from '../pg/schema.js';
import {
  type SessauthSqliteTables,
  sessauthRateLimit as sqliteRateLimit,
  sessauthSession as sqliteSession,
  sessauthSqliteTables,
} from '../sqlite/schema.js';
import { type SyncSqliteDatabase, sqliteEngine } from '../sqlite/sqlite-engine.js';
import type { SessionEngine } from './engine.js';

// The activity and outbox tables under their default names, built here and not exported by the
// schema modules: a host's `export * from '@sessauth/drizzle/pg'` must not grow a table (and a
// migration) for a feature it did not turn on.
const { activity: pgDefaultActivity, securityEvent: pgDefaultSecurityEvent } = sessauthPgTables();
const { activity: mysqlDefaultActivity, securityEvent: mysqlDefaultSecurityEvent } = sessauthMysqlTables();
const { activity: sqliteDefaultActivity, securityEvent: sqliteDefaultSecurityEvent } = sessauthSqliteTables();

/** A drizzle database the stores accept: PostgreSQL, MySQL/MariaDB, or SQLite over a synchronous driver (better-sqlite3). */
export type DrizzleDatabase = AnyPgDatabase | AnyMysqlDatabase | SyncSqliteDatabase;

/** The tables of `sessauthPgTables`, `sessauthMysqlTables` or `sessauthSqliteTables`, matching the database's dialect. */
export type SessauthTables = SessauthPgTables | SessauthMysqlTables | SessauthSqliteTables;

/**
 * The engine of the database's dialect, chosen once. Without `tables`, the package's tables
 * under their default names.
 */
export function resolveEngine(db: DrizzleDatabase, tables?: SessauthTables): SessionEngine {
  if (is(db, PgDatabase)) {
    return postgresEngine(
      db as AnyPgDatabase,
      ofDialect(
        tables ?? { session: pgSession, rateLimit: pgRateLimit, activity: pgDefaultActivity, securityEvent: pgDefaultSecurityEvent },
        PgTable,
        'sessauthPgTables',
      ),
    );
  }
  if (is(db, MySqlDatabase)) {
    const chosen = ofDialect(
      tables ?? {
        session: mysqlSession,
        userLock: sessauthSessionUserLock,
        rateLimit: mysqlRateLimit,
        activity: mysqlDefaultActivity,
        securityEvent: mysqlDefaultSecurityEvent,
      },
      MySqlTable,
      'sessauthMysqlTables',
    );
    if (!('userLock' in chosen))
      throw new TypeError('@sessauth/drizzle: MySQL tables need the user-lock table: pass the tables of sessauthMysqlTables()');
    return mysqlEngine(db as AnyMysqlDatabase, chosen);
  }
  if (is(db, BaseSQLiteDatabase)) {
    // better-sqlite3 (and bun:sqlite) answer synchronously: the store's transactions rely on it.
    if ((db as unknown as { resultKind?: unknown }).resultKind !== 'sync') {
      throw new TypeError(
        '@sessauth/drizzle: SQLite needs a synchronous driver (better-sqlite3); async SQLite drivers (libsql, D1) are not supported',
      );
    }
    return sqliteEngine(
      db as SyncSqliteDatabase,
      ofDialect(
        tables ?? { session: sqliteSession, rateLimit: sqliteRateLimit, activity: sqliteDefaultActivity, securityEvent: sqliteDefaultSecurityEvent },
        SQLiteTable,
        'sessauthSqliteTables',
      ),
    );
  }
  throw new TypeError('@sessauth/drizzle: not a drizzle database (PostgreSQL, MySQL or SQLite) this store knows');
}

type TableClass = typeof PgTable | typeof MySqlTable | typeof SQLiteTable;

/** The tables, checked to be of the database's dialect (a pg table on MySQL would build wrong SQL). */
function ofDialect<T extends SessauthTables>(tables: SessauthTables, kind: TableClass, factory: string): T {
  const all = Object.values(tables) as Table[];
  if (all.length === 0 || !all.every((table) => is(table, kind))) {
    throw new TypeError(`@sessauth/drizzle: the tables are not of this database's dialect; build them with ${factory}()`);
  }
  return tables as T;
}
