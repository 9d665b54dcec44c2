import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { isHotStatement } from '../prepared-query.js';

/**
 * Optional SQLite tuning: wraps the `better-sqlite3` database you give to kysely's
 * SqliteDialect so the store's hot statements are prepared once and reused
 * (kysely's driver prepares every query anew). Every other query passes through.
 *
 * `new SqliteDialect({ database: withStatementCache(new Database(path)) })`
 */
export function withStatementCache(database: SqliteDatabase): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sqlText: string): SqliteStatement {
      if (!isHotStatement(sqlText)) return database.prepare(sqlText);
      const cached = cache.get(sqlText);
      // A statement still iterating (a stream) cannot run again: prepare a fresh one.
      if (cached !== undefined && (cached as { busy?: boolean }).busy !== true) return cached;
      const statement = database.prepare(sqlText);
      cache.set(sqlText, statement);
      return statement;
    },
  };
}
