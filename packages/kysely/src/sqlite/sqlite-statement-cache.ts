import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { isHotStatement } from '../prepared-query.js';
import type { DirectReads } from '../dialect/direct-reads.js';

/**
 * A SQLite database whose hot statements can also be read directly, bypassing
 * kysely's per-query connection lock (hand it to `createKyselyStore` as `directReads`).
 */
export interface SqliteDirectReads extends SqliteDatabase, DirectReads {
  /**
   * Runs a hot read statement synchronously on the same connection, or returns null
   * when that is not safe now (a transaction is open on the connection, or the
   * database does not say): the caller then goes through kysely.
   */
  readHot(sqlText: string, parameters: readonly unknown[]): unknown[] | null;
}

/**
 * Optional SQLite tuning: wraps the `better-sqlite3` database you give to kysely's
 * SqliteDialect so the store's hot statements are prepared once and reused
 * (kysely's driver prepares every query anew). Every other query passes through.
 *
 * `new SqliteDialect({ database: withStatementCache(new Database(path)) })`
 */
export function withStatementCache(database: SqliteDatabase): SqliteDirectReads {
  const cache = new Map<string, SqliteStatement>();
  const prepare = (sqlText: string): SqliteStatement => {
    if (!isHotStatement(sqlText)) return database.prepare(sqlText);
    const cached = cache.get(sqlText);
    // A statement still iterating (a stream) cannot run again: prepare a fresh one.
    if (cached !== undefined && (cached as { busy?: boolean }).busy !== true) return cached;
    const statement = database.prepare(sqlText);
    cache.set(sqlText, statement);
    return statement;
  };
  return {
    close: () => database.close(),
    prepare,
    readHot(sqlText, parameters) {
      // better-sqlite3 is synchronous: with no transaction open, every write has
      // committed and nothing can interleave with this read. Inside one (kysely
      // awaits between its statements), reading here could see uncommitted rows.
      if ((database as { inTransaction?: boolean }).inTransaction !== false || !isHotStatement(sqlText)) return null;
      return prepare(sqlText).all(parameters);
    },
  };
}
