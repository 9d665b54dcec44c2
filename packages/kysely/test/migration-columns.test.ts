import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDialect } from '../src/dialect/resolve-dialect.js';
import { migrateToLatest, type DialectName } from '../src/index.js';
import { expectedTables, MIGRATION_COLUMNS } from '../src/migrations/migration-columns.js';
import { tableNames } from '../src/schema.js';
import { SESSION_COLUMNS } from '../src/session-row.js';
import { ALL_TARGETS, type TestDatabase } from './support/test-databases.js';
import { dropMigrated } from './support/drop-migrated.js';

async function columnsOf(db: Kysely<unknown>, dialect: DialectName, table: string): Promise<string[]> {
  if (dialect === 'postgres') {
    const result = await sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(db);
    return result.rows.map((r) => r.name);
  }
  if (dialect === 'mysql') {
    const result = await sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_schema = database() and table_name = ${table}`.execute(db);
    return result.rows.map((r) => r.name);
  }
  const result = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return result.rows.map((r) => r.name);
}

// The start-up check trusts MIGRATION_COLUMNS; this keeps the map honest: a new
// migration registered in migrate.ts without its entry there fails here.
for (const target of ALL_TARGETS) {
  describe(`MIGRATION_COLUMNS on ${target.label}`, () => {
    let database: TestDatabase | null = null;
    beforeAll(async () => {
      database = await target.open();
    });
    afterAll(async () => {
      await database?.close();
    });

    it('lists exactly the migrations migrateToLatest applies, in order', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db } = database;
      const tableName = `sessauth_mc_${randomBytes(4).toString('hex')}`;
      try {
        const { applied } = await migrateToLatest(db, { tableName, rateLimitTableName: `${tableName}_rl` });
        expect(applied).toEqual(Object.keys(MIGRATION_COLUMNS));
      } finally {
        await dropMigrated(db, database.dialect, tableName, `${tableName}_rl`);
      }
    });

    it('names every column of every migrated table, and no other', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db, dialect, tableName, rateLimitTableName } = database;
      const names = tableNames(tableName, rateLimitTableName);
      const tables = expectedTables(resolveDialect(db), names, ['session', 'rateLimit', 'userLock']);
      expect(tables.map((t) => t.name)).toEqual(
        dialect === 'mysql' ? [tableName, names.userLock, rateLimitTableName] : [tableName, rateLimitTableName],
      );
      for (const table of tables) {
        expect((await columnsOf(db, dialect, table.name)).sort(), table.name).toEqual(table.columns.map((c) => c.name).sort());
      }
    });
  });
}

describe('the columns the session queries read', () => {
  it('are the session columns of every migration, in migration order (one list cannot drift from the other)', () => {
    const fromMigrations = Object.values(MIGRATION_COLUMNS).flatMap((entries) =>
      entries.filter((entry) => entry.table === 'session').flatMap((entry) => entry.columns),
    );
    expect([...SESSION_COLUMNS]).toEqual(fromMigrations);
  });
});
