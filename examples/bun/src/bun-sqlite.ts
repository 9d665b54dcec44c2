/// <reference types="bun" />
import { Database } from 'bun:sqlite';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';

/**
 * Kysely's SqliteDialect over Bun's own driver (`bun:sqlite`), no native module: its
 * `Database` is better-sqlite3-shaped except that statements take spread parameters and do
 * not say whether they return rows (they do when they have result columns, RETURNING too).
 */
export function bunSqliteDatabase(file: string): SqliteDatabase {
  const db = new Database(file, { create: true });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
  return {
    close: () => db.close(),
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        reader: statement.columnNames.length > 0,
        all: (parameters) => statement.all(...(parameters as never[])),
        run: (parameters) => statement.run(...(parameters as never[])),
        iterate: (parameters) => statement.iterate(...(parameters as never[])),
      };
    },
  };
}

/** A Kysely instance on a SQLite file through bun:sqlite, for `createKyselyStore`. */
export function openBunSqlite<DB>(file: string): Kysely<DB> {
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: bunSqliteDatabase(file) }) });
}
