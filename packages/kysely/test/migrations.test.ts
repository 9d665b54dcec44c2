import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDialect } from '../src/dialect/resolve-dialect.js';
import { KyselySessionStore, migrateToLatest } from '../src/index.js';
import { createSessionMigration } from '../src/migrations/0001-create-session.js';
import { createRateLimitMigration } from '../src/migrations/0002-create-rate-limit.js';
import { addSessionNameMigration } from '../src/migrations/0003-session-name.js';
import { tableNames } from '../src/schema.js';
import { ALL_TARGETS, type TestDatabase } from './support/test-databases.js';
import { dropMigrated } from './support/drop-migrated.js';

async function indexNamesOf(database: TestDatabase, table: string): Promise<string[]> {
  const { db, dialect } = database;
  if (dialect === 'postgres') {
    const result = await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${table}`.execute(db);
    return result.rows.map((r) => r.name);
  }
  if (dialect === 'mysql') {
    const result = await sql<{ name: string }>`select distinct index_name as name from information_schema.statistics
      where table_schema = database() and table_name = ${table}`.execute(db);
    return result.rows.map((r) => r.name);
  }
  const result = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db);
  return result.rows.map((r) => r.name);
}

for (const target of ALL_TARGETS) {
  describe(`migrations on ${target.label}`, () => {
    let database: TestDatabase | null = null;
    beforeAll(async () => {
      database = await target.open();
    });
    afterAll(async () => {
      await database?.close();
    });
    const ready = (): TestDatabase => {
      if (database === null) throw new Error('unreachable');
      return database;
    };

    it('is idempotent: a second and a concurrent run apply nothing and change nothing', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db, tableName, rateLimitTableName } = ready();
      const before = await indexNamesOf(ready(), tableName);
      const again = await Promise.all([
        migrateToLatest(db, { tableName, rateLimitTableName }),
        migrateToLatest(db, { tableName, rateLimitTableName }),
      ]);
      expect(again.map((r) => r.applied)).toEqual([[], []]);
      expect((await indexNamesOf(ready(), tableName)).sort()).toEqual(before.sort());
    });

    it('two processes migrating a fresh database at once: one applies, the other waits and applies nothing', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db, tableName } = ready();
      const fresh = { tableName: `${tableName}_f`, rateLimitTableName: `${tableName}_frl` };
      try {
        const results = await Promise.all([migrateToLatest(db, fresh), migrateToLatest(db, fresh)]);
        const applied = results.map((r) => r.applied).sort((a, b) => b.length - a.length);
        expect(applied).toEqual([
          [
            '0001-create-session',
            '0002-create-rate-limit',
            '0003-session-name',
            '0004-session-authentication',
            '0005-session-dpop',
            '0006-session-activity',
            '0007-security-event-outbox',
            '0008-session-device-bound',
            '0009-login-function',
          ],
          [],
        ]);
      } finally {
        await dropMigrated(db, target.dialect, fresh.tableName, fresh.rateLimitTableName);
      }
    });

    it('the longest table name allowed (40 characters) migrates on every engine: its one over-long index name is cut to 63, as PostgreSQL always cut it', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db, tableName } = ready();
      const longest = `${tableName}_long`.padEnd(40, 'x').slice(0, 40);
      const fresh = { tableName: longest, rateLimitTableName: `${tableName}_lrl` };
      expect(() => tableNames(`${longest}x`)).toThrow(TypeError);
      try {
        await migrateToLatest(db, fresh);
        const names = tableNames(fresh.tableName, fresh.rateLimitTableName);
        // 65 characters whole: MySQL and MariaDB refused migration 0007 before the cut.
        expect(`${names.securityEvent}_batch_idx`).toHaveLength(65);
        expect(await indexNamesOf(ready(), names.securityEvent)).toEqual(
          expect.arrayContaining([`${names.securityEvent}_due_idx`, `${names.securityEvent}_batch_idx`.slice(0, 63)]),
        );
        const store = new KyselySessionStore(db, { tableName: longest });
        await store.verify();
        expect(await store.listActiveSessions('nobody', new Date())).toEqual([]);
        // The outbox on the long name works: nothing is due.
        expect(await store.claimSecurityEvents(new Date(), new Date(Date.now() + 1000), 10)).toEqual([]);
      } finally {
        await dropMigrated(db, target.dialect, fresh.tableName, fresh.rateLimitTableName);
      }
    });

    it('0003-session-name adds a nullable name to a schema at 0002: existing sessions read as unnamed and can be named', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db, tableName } = ready();
      const fresh = { tableName: `${tableName}_n`, rateLimitTableName: `${tableName}_nrl` };
      const names = tableNames(fresh.tableName, fresh.rateLimitTableName);
      const dialect = resolveDialect(db);
      try {
        const upTo0002 = new Migrator({
          db,
          provider: {
            getMigrations: async () => ({
              '0001-create-session': createSessionMigration(dialect, names),
              '0002-create-rate-limit': createRateLimitMigration(dialect, names),
            }),
          },
          migrationTableName: names.migration,
          migrationLockTableName: names.migrationLock,
        });
        expect((await upTo0002.migrateToLatest()).error).toBeUndefined();
        const nowMs = Date.now();
        await sql`insert into ${sql.table(fresh.tableName)} (id, user_id, refresh_jti, security_stamp, created_at, last_activity_at, expires_at)
          values ('old-session', 'u1', 'jti', 'stamp', ${nowMs}, ${nowMs}, ${nowMs + 3_600_000})`.execute(db);
        expect((await migrateToLatest(db, fresh)).applied).toEqual([
          '0003-session-name',
          '0004-session-authentication',
          '0005-session-dpop',
          '0006-session-activity',
          '0007-security-event-outbox',
          '0008-session-device-bound',
          '0009-login-function',
        ]);
        const store = new KyselySessionStore(db, { tableName: fresh.tableName });
        expect((await store.findSession('old-session'))?.name).toBeNull();
        expect(await store.renameSession('old-session', 'u1', 'Old laptop', new Date(nowMs + 1000))).toBe(true);
        expect((await store.findSession('old-session'))?.name).toBe('Old laptop');
      } finally {
        await dropMigrated(db, target.dialect, fresh.tableName, fresh.rateLimitTableName);
      }
    });

    it('0004-session-authentication adds auth_time, amr and acr to a schema at 0003: old rows read authTime = created_at, amr [], and can step up', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db, tableName } = ready();
      const fresh = { tableName: `${tableName}_a`, rateLimitTableName: `${tableName}_arl` };
      const names = tableNames(fresh.tableName, fresh.rateLimitTableName);
      const dialect = resolveDialect(db);
      try {
        const upTo0003 = new Migrator({
          db,
          provider: {
            getMigrations: async () => ({
              '0001-create-session': createSessionMigration(dialect, names),
              '0002-create-rate-limit': createRateLimitMigration(dialect, names),
              '0003-session-name': addSessionNameMigration(dialect, names),
            }),
          },
          migrationTableName: names.migration,
          migrationLockTableName: names.migrationLock,
        });
        expect((await upTo0003.migrateToLatest()).error).toBeUndefined();
        const nowMs = Date.now();
        await sql`insert into ${sql.table(fresh.tableName)} (id, user_id, refresh_jti, security_stamp, created_at, last_activity_at, expires_at)
          values ('old-session', 'u1', 'jti', 'stamp', ${nowMs}, ${nowMs}, ${nowMs + 3_600_000})`.execute(db);
        expect((await migrateToLatest(db, fresh)).applied).toEqual([
          '0004-session-authentication',
          '0005-session-dpop',
          '0006-session-activity',
          '0007-security-event-outbox',
          '0008-session-device-bound',
          '0009-login-function',
        ]);
        const store = new KyselySessionStore(db, { tableName: fresh.tableName });
        expect(await store.findSession('old-session')).toMatchObject({ authTime: new Date(nowMs), amr: [], acr: null });
        const later = new Date(nowMs + 1000);
        expect(await store.recordStepUp({ sessionId: 'old-session', userId: 'u1', authTime: later, amr: ['pwd'], acr: null, now: later })).toBe(true);
        expect(await store.findSession('old-session')).toMatchObject({ authTime: later, amr: ['pwd'], acr: null });
      } finally {
        await dropMigrated(db, target.dialect, fresh.tableName, fresh.rateLimitTableName);
      }
    });

    it('creates the indexes that serve the hot queries', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { tableName, rateLimitTableName } = ready();
      const names = await indexNamesOf(ready(), tableName);
      for (const suffix of ['user_active_idx', 'expired_at_idx', 'expires_at_idx', 'created_id_idx']) {
        expect(names).toContain(`${tableName}_${suffix}`);
      }
      expect(await indexNamesOf(ready(), rateLimitTableName)).toContain(`${rateLimitTableName}_reset_at_idx`);
    });

    it("keeps its bookkeeping apart from the host app's own Migrator", async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db, tableName, rateLimitTableName } = ready();
      const appTable = `${tableName}_app`;
      const appMigrator = new Migrator({
        db,
        provider: {
          getMigrations: () =>
            Promise.resolve({
              '2024-app-table': {
                up: async (app: Kysely<unknown>) => {
                  await app.schema
                    .createTable(appTable)
                    .addColumn('id', 'integer', (c) => c.primaryKey())
                    .execute();
                },
              },
            }),
        },
        migrationTableName: `${tableName}_appmig`,
        migrationLockTableName: `${tableName}_appmig_lock`,
      });
      try {
        const app = await appMigrator.migrateToLatest();
        expect(app.error).toBeUndefined();
        expect((await migrateToLatest(db, { tableName, rateLimitTableName })).applied).toEqual([]);
      } finally {
        for (const t of [appTable, `${tableName}_appmig`, `${tableName}_appmig_lock`]) {
          await sql`drop table if exists ${sql.table(t)}`.execute(db);
        }
      }
    });

    it.runIf(target.dialect === 'mysql')('MySQL tables are utf8mb4 with a binary collation', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db, tableName } = ready();
      const result = await sql<{ collation: string }>`select table_collation as collation from information_schema.tables
        where table_schema = database() and table_name in (${tableName}, ${`${tableName}_user_lock`}, ${`${tableName}_activity`})`.execute(db);
      expect(result.rows).toHaveLength(3);
      for (const row of result.rows) expect(row.collation).toMatch(/^utf8mb4_.*bin$/);
    });
  });
}

describe('table names', () => {
  it('rejects a table name that is not a plain identifier (it is spliced into index names)', async () => {
    const db = {} as Kysely<unknown>;
    await expect(migrateToLatest(db, { dialect: 'sqlite', tableName: 'sessions; drop table x' })).rejects.toThrow(TypeError);
    await expect(migrateToLatest(db, { dialect: 'sqlite', tableName: `t${'x'.repeat(40)}` })).rejects.toThrow(TypeError);
  });
});
