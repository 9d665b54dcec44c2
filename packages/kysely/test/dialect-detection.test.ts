import Database from 'better-sqlite3';
import pg from 'pg';
import { createPool } from 'mysql2';
import {
  Kysely,
  MysqlDialect,
  PostgresDialect,
  SqliteDialect,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Dialect,
  type DialectAdapter,
  type Driver,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { resolveDialect } from '../src/dialect/resolve-dialect.js';
import { KyselySessionStore } from '../src/index.js';
import { PreparedQuery, slot } from '../src/prepared-query.js';

/** A dialect kysely does not ship: its adapter is none of the three. */
const otherAdapter: DialectAdapter = {
  supportsCreateIfNotExists: true,
  supportsTransactionalDdl: false,
  supportsReturning: true,
  supportsOutput: false,
  acquireMigrationLock: () => Promise.resolve(),
  releaseMigrationLock: () => Promise.resolve(),
};
const otherDialect: Dialect = {
  createAdapter: () => otherAdapter,
  createDriver: () => ({}) as Driver,
  createIntrospector: (db) => new SqliteIntrospector(db),
  createQueryCompiler: () => new SqliteQueryCompiler(),
};

describe('dialect detection', () => {
  // None of these connect: a pool connects on first use only.
  const kyselys = {
    postgres: new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ port: 1 }) }) }),
    mysql: new Kysely<unknown>({ dialect: new MysqlDialect({ pool: createPool({ port: 1 }) }) }),
    sqlite: new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) }),
  };

  it("reads the dialect from the Kysely instance's adapter", () => {
    for (const [name, db] of Object.entries(kyselys)) expect(resolveDialect(db).name).toBe(name);
  });

  it('an explicit dialect wins, and an unknown adapter asks for one', () => {
    const other = new Kysely<unknown>({ dialect: otherDialect });
    expect(() => new KyselySessionStore(other)).toThrow(/pass \{ dialect/);
    expect(resolveDialect(other, 'sqlite').name).toBe('sqlite');
    expect(() => new KyselySessionStore(kyselys.sqlite, { purgeBatchSize: 0 })).toThrow(TypeError);
  });
});

describe('PreparedQuery', () => {
  const db = new Kysely<Record<string, { id: string; n: number }>>({
    dialect: new SqliteDialect({ database: new Database(':memory:') }),
  });

  it('compiles once and fills each named slot, wherever and however often it appears', () => {
    const query = new PreparedQuery(
      db
        .selectFrom('t')
        .selectAll()
        .where('id', '=', slot<string>('id'))
        .where('n', '>', slot<number>('now'))
        .where('n', '<', 7)
        .where('id', '!=', slot<string>('id')),
      ['id', 'now'],
    );
    const first = query.bind({ id: 'a', now: 1 });
    const second = query.bind({ id: 'b', now: 2 });
    expect(first.sql).toBe(second.sql);
    expect(first.parameters).toEqual(['a', 1, 7, 'a']);
    expect(second.parameters).toEqual(['b', 2, 7, 'b']);
  });

  it('refuses a slot the query does not have (a programming error caught at construction)', () => {
    expect(() => new PreparedQuery(db.selectFrom('t').selectAll().where('id', '=', 'x'), ['id'])).toThrow(/slot id/);
  });
});
