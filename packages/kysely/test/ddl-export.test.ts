import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { newSessionFixture } from '@sessauth/conformance';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationDdl } from '../src/ddl.js';
import { KyselyRateLimitStore, KyselySessionStore } from '../src/index.js';
import type { DialectName } from '../src/dialect/sql-dialect.js';
import { ALL_TARGETS, type TestDatabase } from './support/test-databases.js';
import { dropMigrated } from './support/drop-migrated.js';

/** Each column's shape, in table order, as the engine reports it (types, nullability, collation). */
async function columnsOf(db: Kysely<unknown>, dialect: DialectName, table: string): Promise<unknown[]> {
  if (dialect === 'postgres') {
    return (
      await sql`select column_name, data_type, character_maximum_length, is_nullable, collation_name
      from information_schema.columns where table_name = ${table} order by ordinal_position`.execute(db)
    ).rows;
  }
  if (dialect === 'mysql') {
    return (
      await sql`select column_name, column_type, is_nullable, collation_name, column_key from information_schema.columns
      where table_schema = database() and table_name = ${table} order by ordinal_position`.execute(db)
    ).rows;
  }
  return (await sql`select name, type, "notnull", pk from pragma_table_info(${table})`.execute(db)).rows;
}

async function indexesOf(db: Kysely<unknown>, dialect: DialectName, table: string): Promise<string[]> {
  const query =
    dialect === 'postgres'
      ? sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${table}`
      : dialect === 'mysql'
        ? sql<{ name: string }>`select distinct index_name as name from information_schema.statistics
        where table_schema = database() and table_name = ${table}`
        : sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`;
  return (await query.execute(db)).rows.map((row) => row.name.replace(table, '<table>')).sort();
}

/** The collation migrateToLatest chose on this server, for the MySQL export. */
async function mysqlCollationOf(db: Kysely<unknown>, table: string): Promise<string> {
  const result = await sql<{ c: string }>`select table_collation as c from information_schema.tables
    where table_schema = database() and table_name = ${table}`.execute(db);
  return result.rows[0]!.c;
}

for (const target of ALL_TARGETS) {
  describe(`the exported DDL on ${target.label}`, () => {
    let database: TestDatabase | null = null;
    beforeAll(async () => {
      database = await target.open();
    });
    afterAll(async () => {
      if (database === null) return;
      await dropMigrated(database.db, database.dialect, `${database.tableName}_ddl`, `${database.rateLimitTableName}_ddl`);
      await database.close();
    });

    it('creates the same tables, columns and indexes as migrateToLatest, and the stores work on them', async (test) => {
      // reachService already printed which server is missing (and fails the run with SESSAUTH_REQUIRE_SERVICES=1).
      if (database === null) return test.skip('database server unreachable');
      const { db, dialect, tableName, rateLimitTableName } = database;
      const names = { tableName: `${tableName}_ddl`, rateLimitTableName: `${rateLimitTableName}_ddl` };
      const mysqlCollation = dialect === 'mysql' ? await mysqlCollationOf(db, tableName) : undefined;
      const ddl = await migrationDdl(dialect, { ...names, mysqlCollation });
      const statements = ddl.split('\n').filter((line) => line !== '' && !line.startsWith('--'));
      for (const statement of statements) await sql.raw(statement.replace(/;$/, '')).execute(db);

      for (const [migrated, exported] of [
        [tableName, names.tableName],
        [rateLimitTableName, names.rateLimitTableName],
      ] as const) {
        expect(await columnsOf(db, dialect, exported)).toEqual(await columnsOf(db, dialect, migrated));
        expect(await indexesOf(db, dialect, exported)).toEqual(await indexesOf(db, dialect, migrated));
      }
      if (dialect === 'postgres') {
        // The login function (0009) is in the export too: the store below writes its login in one statement.
        const signature = `"${names.tableName}_evict_beyond_cap"(text, text, text, bigint, integer, regclass, integer)`;
        const found = await sql<{ fn: string | null }>`select to_regprocedure(${signature})::text as fn`.execute(db);
        expect(found.rows[0]?.fn).not.toBeNull();
      }
      const store = new KyselySessionStore(db, { tableName: names.tableName });
      const session = newSessionFixture();
      await store.createSession({ session, maxActiveSessions: 5 });
      expect((await store.findSession(session.id))?.userId).toBe(session.userId);
      const counters = new KyselyRateLimitStore(db, { tableName: names.rateLimitTableName });
      expect((await counters.hit('k', 60, new Date())).count).toBe(1);
    }, 60_000);
  });
}

describe('sessauth-kysely sql and --version', () => {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const nodeArgs = ['--conditions=@sessauth/source', '--import', 'tsx', 'src/cli.ts', ...args];
      execFile(process.execPath, nodeArgs, { cwd: packageDir }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr });
      });
    });

  it('prints the DDL with no connection, and the version; a missing dialect or an unknown option exits 2', async () => {
    const version = (JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8')) as { version: string }).version;
    const [postgres, maria, noDialect, typo, printed] = await Promise.all([
      run(['sql', '--dialect', 'postgres', '--table', 'auth_sessions']),
      run(['sql', '--dialect', 'mysql', '--collation', 'utf8mb4_nopad_bin']),
      run(['sql']),
      run(['sql', '--dialekt', 'postgres']),
      run(['--version']),
    ]);
    expect(postgres).toEqual({ code: 0, stdout: await migrationDdl('postgres', { tableName: 'auth_sessions' }), stderr: '' });
    expect(postgres.stdout).toContain('create table "auth_sessions" ("id" varchar(128) collate "C" not null primary key');
    expect(maria.stdout).toContain('collate = utf8mb4_nopad_bin;');
    expect(noDialect).toMatchObject({ code: 2, stderr: expect.stringContaining('--dialect must be one of postgres, mysql, sqlite') });
    expect(typo).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--dialekt'") });
    expect(printed).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  }, 90_000);
});
