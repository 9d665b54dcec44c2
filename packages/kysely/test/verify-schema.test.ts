import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessauth, StoreSchemaError, StoreUnavailableError, type Logger, type RateLimitStore, type SessionStore } from '@sessauth/core';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KyselyRateLimitStore, KyselySessionStore, migrateToLatest, type DialectName } from '../src/index.js';
import { openKyselyFromUrl, type OpenedDatabase } from '../src/open-from-url.js';
import { ALL_TARGETS, type TestDatabase } from './support/test-databases.js';
import { dropMigrated } from './support/drop-migrated.js';

type Line = { event: string; fields: Record<string, unknown> | undefined };

function recordingLogger(): Logger & { warnings: Line[] } {
  const warnings: Line[] = [];
  return { warnings, warn: (event, fields) => warnings.push({ event, fields }), error: () => undefined };
}

/** createSessauth over the two Kysely stores, as a host wires them. */
function start(session: SessionStore, rateLimit: RateLimitStore, logger: Logger = recordingLogger(), extra: { sessionActivity?: boolean } = {}) {
  return createSessauth({
    options: { secretKey: 'an-hmac-secret-of-exactly-32-by!', issuer: 'https://issuer.test', audience: 'aud', ...extra },
    store: session,
    rateLimitStore: rateLimit,
    users: { findById: async () => null, idOf: () => '', securityStamp: () => '' },
    authenticator: async () => {
      throw new Error('not called');
    },
    logger,
  });
}

async function schemaErrorOf(promise: Promise<unknown>): Promise<StoreSchemaError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof StoreSchemaError)) throw new Error(`expected a StoreSchemaError, got ${String(error)}`, { cause: error });
  return error;
}

const FIX = 'run migrateToLatest() with the same table names or `npx sessauth-kysely migrate --table';

for (const target of ALL_TARGETS) {
  describe(`checkSchema() on ${target.label}`, () => {
    let database: TestDatabase | null = null;
    const created: { tableName: string; rateLimitTableName: string }[] = [];
    beforeAll(async () => {
      database = await target.open();
    });
    afterAll(async () => {
      if (database !== null) {
        for (const names of created) await dropMigrated(database.db, database.dialect, names.tableName, names.rateLimitTableName);
      }
      await database?.close();
    });
    const ready = (): TestDatabase => {
      if (database === null) throw new Error('unreachable');
      return database;
    };
    /** Fresh, unique table names (dropped after the suite), migrated unless told otherwise. */
    const freshTables = async (migrate: boolean) => {
      const { db } = ready();
      const tableName = `sessauth_v_${randomBytes(4).toString('hex')}`;
      const rateLimitTableName = `${tableName}_rl`;
      created.push({ tableName, rateLimitTableName });
      if (migrate) await migrateToLatest(db, { tableName, rateLimitTableName });
      return {
        tableName,
        rateLimitTableName,
        session: new KyselySessionStore(db, { tableName }),
        rateLimit: new KyselyRateLimitStore(db, { tableName: rateLimitTableName }),
      };
    };

    it('a migrated database verifies, and createSessauth starts without a warning', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db, tableName, rateLimitTableName } = ready();
      const session = new KyselySessionStore(db, { tableName });
      const rateLimit = new KyselyRateLimitStore(db, { tableName: rateLimitTableName });
      await expect(session.checkSchema()).resolves.toBeUndefined();
      await expect(rateLimit.checkSchema()).resolves.toBeUndefined();
      const logger = recordingLogger();
      await start(session, rateLimit, logger);
      expect(logger.warnings).toEqual([]);
    });

    it('a database with no tables: createSessauth rejects naming 0001-create-session and the fix', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { tableName, session, rateLimit } = await freshTables(false);
      const error = await schemaErrorOf(start(session, rateLimit));
      expect(error.problems[0]).toEqual({ table: tableName, missingColumns: [], migration: '0001-create-session' });
      // MySQL/MariaDB: 0001 also creates the user-lock table.
      expect(error.problems.map((p) => p.migration)).toEqual(
        target.dialect === 'mysql' ? ['0001-create-session', '0001-create-session'] : ['0001-create-session'],
      );
      expect(error.message).toContain(`table "${tableName}" is missing (migration 0001-create-session)`);
      expect(error.message).toContain(`${FIX} ${tableName}`);
      expect(error.code).toBe('service_unavailable');
      // The rate-limit store alone names its own migration.
      expect((await schemaErrorOf(rateLimit.checkSchema())).problems.map((p) => p.migration)).toEqual(['0002-create-rate-limit']);
    });

    it('the session table present but the rate-limit table missing: rejects naming 0002-create-rate-limit', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { rateLimitTableName, session, rateLimit } = await freshTables(true);
      await sql`drop table ${sql.table(rateLimitTableName)}`.execute(ready().db);
      await expect(session.checkSchema()).resolves.toBeUndefined();
      const error = await schemaErrorOf(start(session, rateLimit));
      expect(error.problems).toEqual([{ table: rateLimitTableName, missingColumns: [], migration: '0002-create-rate-limit' }]);
      expect(error.message).toContain(`--rate-limit-table ${rateLimitTableName}`);
    });

    it('{ activity: true } with the activity table dropped: createSessauth rejects naming 0006-session-activity and the fix', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { tableName, rateLimit } = await freshTables(true);
      const { db } = ready();
      const withActivity = new KyselySessionStore(db, { tableName, activity: true });
      await expect(withActivity.checkSchema()).resolves.toBeUndefined();
      await sql`drop table ${sql.table(`${tableName}_activity`)}`.execute(db);
      const error = await schemaErrorOf(start(withActivity, rateLimit, recordingLogger(), { sessionActivity: true }));
      expect(error.problems).toEqual([{ table: `${tableName}_activity`, missingColumns: [], migration: '0006-session-activity' }]);
      expect(error.message).toContain(`table "${tableName}_activity" is missing (migration 0006-session-activity)`);
      expect(error.message).toContain(`${FIX} ${tableName}`);
      expect(error.code).toBe('service_unavailable');
      // A host that does not keep the history never needs (or checks) the table.
      await expect(new KyselySessionStore(db, { tableName }).checkSchema()).resolves.toBeUndefined();
    });

    it('dropped columns: the error names each column and the migration that adds it', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { tableName, rateLimitTableName, session, rateLimit } = await freshTables(true);
      const { db } = ready();
      for (const column of ['location', 'browser']) await sql`alter table ${sql.table(tableName)} drop column ${sql.ref(column)}`.execute(db);
      const error = await schemaErrorOf(session.checkSchema());
      // In the order the migrations list them, not the order they were dropped.
      expect(error.problems).toEqual([{ table: tableName, missingColumns: ['browser', 'location'], migration: '0001-create-session' }]);
      expect(error.message).toContain(`table "${tableName}" lacks columns browser, location (migration 0001-create-session)`);

      await sql`alter table ${sql.table(rateLimitTableName)} drop column ${sql.ref('count')}`.execute(db);
      const limiterError = await schemaErrorOf(rateLimit.checkSchema());
      expect(limiterError.problems).toEqual([{ table: rateLimitTableName, missingColumns: ['count'], migration: '0002-create-rate-limit' }]);
    });
  });
}

/** A database that cannot be reached, opened as a host opens it at boot. */
const UNREACHABLE: ReadonlyArray<{
  label: string;
  dialect: DialectName;
  open(): Promise<OpenedDatabase | { db: Kysely<unknown>; destroy(): Promise<void> }>;
}> = [
  { label: 'PostgreSQL', dialect: 'postgres', open: () => openKyselyFromUrl('postgres://postgres@127.0.0.1:1/test', { connectTimeoutMs: 2000 }) },
  { label: 'MariaDB', dialect: 'mysql', open: () => openKyselyFromUrl('mysql://root@127.0.0.1:1/test', { connectTimeoutMs: 2000 }) },
  {
    label: 'SQLite',
    dialect: 'sqlite',
    // The file is opened at the first query, and it is not there (a volume not mounted yet).
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sessauth-verify-'));
      const db = new Kysely<unknown>({
        dialect: new SqliteDialect({ database: async () => new Database(join(dir, 'sessions.db'), { fileMustExist: true }) }),
      });
      return {
        db,
        destroy: async () => {
          await db.destroy().catch(() => undefined);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
];

for (const target of UNREACHABLE) {
  it(`${target.label} unreachable at start-up: createSessauth starts and logs store_unverified, and calls answer 503`, async () => {
    const opened = await target.open();
    try {
      const session = new KyselySessionStore(opened.db, { operationTimeoutMs: 3000 });
      const rateLimit = new KyselyRateLimitStore(opened.db, { operationTimeoutMs: 3000 });
      const logger = recordingLogger();
      const auth = await start(session, rateLimit, logger);
      const expectedCode = target.dialect === 'sqlite' ? 'SQLITE_CANTOPEN' : 'ECONNREFUSED';
      expect(logger.warnings.map((line) => [line.event, line.fields?.store, line.fields?.operation, line.fields?.driver_code])).toEqual([
        ['store_unverified', 'session', 'checkSchema', expectedCode],
        ['store_unverified', 'rate_limit', 'checkSchema', expectedCode],
      ]);
      expect(logger.warnings[0]?.fields?.hint).toEqual(expect.any(String));
      // Started: a call that needs the store fails closed (503), as before.
      const error: unknown = await auth.purgeExpired().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as StoreUnavailableError).status).toBe(503);
    } finally {
      await opened.destroy();
    }
  });
}
