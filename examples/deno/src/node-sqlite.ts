/// <reference path="./node-sqlite-types.d.ts" />
import { DatabaseSync } from 'node:sqlite';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';

/**
 * Kysely's SqliteDialect over Deno's built-in SQLite (`node:sqlite`), no native module and
 * no FFI: statements take spread parameters and say through `columns()` whether they return
 * rows (they do when they have result columns, RETURNING too).
 */
export function nodeSqliteDatabase(file: string): SqliteDatabase {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
  return {
    close: () => db.close(),
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...(parameters as never[])),
        run: (parameters) => statement.run(...(parameters as never[])),
        iterate: (parameters) => statement.iterate(...(parameters as never[])),
      };
    },
  };
}

/** A Kysely instance on a SQLite file through node:sqlite, for `createKyselyStore`. */
export function openNodeSqlite<DB>(file: string): Kysely<DB> {
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: nodeSqliteDatabase(file) }) });
}
