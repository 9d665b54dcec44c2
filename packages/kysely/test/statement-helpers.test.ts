import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { reachService } from '@sessauth/conformance';
import { Kysely, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import { describe, expect, it } from 'vitest';
import { KyselySessionStore, migrateToLatest, withStatementCache } from '../src/index.js';
import { openKyselyFromUrl } from '../src/open-from-url.js';
import { POSTGRES_URL } from './support/test-databases.js';
import { dropMigrated } from './support/drop-migrated.js';

describe('withStatementCache (SQLite)', () => {
  it("prepares the store's hot statements once and every other statement each time", async () => {
    const raw = new Database(':memory:');
    const prepared: string[] = [];
    const counting: SqliteDatabase = {
      close: () => raw.close(),
      prepare: (text) => (prepared.push(text), raw.prepare(text)),
    };
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: withStatementCache(counting) }) });
    await migrateToLatest(db);
    const store = new KyselySessionStore(db);
    prepared.length = 0;
    for (let i = 0; i < 3; i += 1) await store.findSession(`missing-${i}`);
    for (let i = 0; i < 2; i += 1) await sql`select ${i} as n`.execute(db);
    expect(prepared.filter((text) => text.startsWith('select "id"'))).toHaveLength(1);
    expect(prepared.filter((text) => text.startsWith('select ? as n'))).toHaveLength(2);
    await db.destroy();
  });
});

describe('withNamedStatements (PostgreSQL)', () => {
  it('runs the hot statements as named prepared statements, and nothing else', async (test) => {
    const opened = await reachService('PostgreSQL 127.0.0.1:5432', () => openKyselyFromUrl(POSTGRES_URL, { poolSize: 1 }));
    if (opened === null) return test.skip('its server is unreachable (named in the skip line above)');
    const tableName = `sessauth_named_${randomBytes(4).toString('hex')}`;
    try {
      await migrateToLatest(opened.db, { tableName, rateLimitTableName: `${tableName}_rl` });
      const store = new KyselySessionStore(opened.db, { tableName });
      await store.findSession('nope');
      await store.findSession('still-nope');
      // One connection in the pool: this runs where the store's statement was prepared.
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(opened.db);
      const ours = rows.filter((row) => row.statement.includes(tableName));
      expect(ours).toHaveLength(1);
      expect(ours[0]?.name).toMatch(/^sessauth_[0-9a-f]{24}$/);
      // The guard's read: the row packed in one JSON array column (see postgresDialect.packColumns).
      expect(ours[0]?.statement).toMatch(/^select json_build_array\("id", "user_id", /);
    } finally {
      await dropMigrated(opened.db, opened.dialect, tableName, `${tableName}_rl`);
      await opened.destroy();
    }
  });
});
