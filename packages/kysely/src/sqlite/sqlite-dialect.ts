import { sql } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import { upsertCounterReturning } from '../dialect/upsert-counter-returning.js';

/** SQLite through kysely's SqliteDialect (`better-sqlite3`). */
export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  updateReturning: true,
  rowLocks: false,
  needsUserLockTable: false,

  // BEGIN IMMEDIATE takes the write lock up front: writers queue (busy_timeout)
  // instead of failing to upgrade a read lock. Within one process kysely's driver
  // already runs one connection scope at a time.
  transaction: (db, fn) =>
    db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await fn(conn);
        await sql`commit`.execute(conn);
        return result;
      } catch (error) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw error;
      }
    }),

  // The immediate transaction already excludes every other writer.
  lockUser: () => Promise.resolve(),

  hitCounter: upsertCounterReturning,

  // SQLite's default BINARY collation is already byte order.
  idColumn: (column) => column,

  tableOptions: () => Promise.resolve(null),
};
