import { createSessauth, StoreSchemaError, type Logger, type RateLimitStore, type SessionStore } from '@sessauth/core';
import { getTableName } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleRateLimitStore, DrizzleSessionStore, StoreCollationError } from '../src/index.js';
import { sessauthMysqlTables } from '../src/mysql/schema.js';
import { sessauthPgTables } from '../src/pg/schema.js';
import { sessauthSqliteTables } from '../src/sqlite/schema.js';
import { ALL_TARGETS, quote, type TestDatabase } from './support/test-databases.js';

const silent: Logger = { warn: () => undefined, error: () => undefined };

/** createSessauth over the two stores, as a host wires them. */
function start(session: SessionStore, rateLimit: RateLimitStore) {
  return createSessauth({
    options: { secretKey: 'an-hmac-secret-of-exactly-32-by!', issuer: 'https://issuer.test', audience: 'aud' },
    store: session,
    rateLimitStore: rateLimit,
    users: { findById: async () => null, idOf: () => '', securityStamp: () => '' },
    authenticator: async () => {
      throw new Error('not called');
    },
    logger: silent,
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

/** Tables of the database's dialect under names nobody created. */
function uncreated(database: TestDatabase) {
  const names = { tableName: 'sessauth_never_created', rateLimitTableName: 'sessauth_never_created_rl' };
  if (database.dialect === 'postgres') return sessauthPgTables(names);
  if (database.dialect === 'mysql') return sessauthMysqlTables(names);
  return sessauthSqliteTables(names);
}

for (const target of ALL_TARGETS) {
  describe(`checkSchema() on ${target.label}`, () => {
    let database: TestDatabase | null = null;
    beforeAll(async () => {
      database = await target.open();
    });
    afterAll(async () => {
      await database?.close();
    });
    const db = (): TestDatabase => {
      if (database === null) throw new Error('server unreachable');
      return database;
    };

    it('tables never created: StoreSchemaError naming each table and its step; createSessauth refuses to start', async (test) => {
      if (database === null) return test.skip('server unreachable');
      const tables = uncreated(db());
      const session = new DrizzleSessionStore(db().db, { tables });
      const rateLimit = new DrizzleRateLimitStore(db().db, { tables });
      const error = await rejection(session.checkSchema());
      expect(error).toBeInstanceOf(StoreSchemaError);
      const expected = [{ table: 'sessauth_never_created', missingColumns: [], migration: '0001-create-session' }];
      if (db().dialect === 'mysql')
        expected.push({ table: 'sessauth_never_created_user_lock', missingColumns: [], migration: '0001-create-session' });
      expect((error as StoreSchemaError).problems).toEqual(expected);
      expect((error as Error).message).toContain('drizzle-kit generate');
      const limiterError = await rejection(rateLimit.checkSchema());
      expect((limiterError as StoreSchemaError).problems).toEqual([
        { table: 'sessauth_never_created_rl', missingColumns: [], migration: '0002-create-rate-limit' },
      ]);
      await expect(start(session, rateLimit)).rejects.toBeInstanceOf(StoreSchemaError);
    });

    it('a column of a later step missing (name, 0003-session-name): named with its step; the rate limiter still verifies', async (test) => {
      if (database === null) return test.skip('server unreachable');
      const { tables, dialect } = db();
      const session = new DrizzleSessionStore(db().db, { tables });
      await expect(session.checkSchema()).resolves.toBeUndefined();
      await db().execute(`alter table ${quote(dialect, getTableName(tables.session))} drop column ${quote(dialect, 'name')}`);
      try {
        const error = await rejection(session.checkSchema());
        expect(error).toBeInstanceOf(StoreSchemaError);
        expect((error as StoreSchemaError).problems).toEqual([
          { table: getTableName(tables.session), missingColumns: ['name'], migration: '0003-session-name' },
        ]);
        await expect(new DrizzleRateLimitStore(db().db, { tables }).checkSchema()).resolves.toBeUndefined();
      } finally {
        await db().execute(`alter table ${quote(dialect, getTableName(tables.session))} add column ${quote(dialect, 'name')} varchar(64)`);
      }
      await expect(session.checkSchema()).resolves.toBeUndefined();
    });

    it('the outbox option: a missing outbox table is named with its step (0007-security-event-outbox); without the option it is never checked', async (test) => {
      if (database === null) return test.skip('server unreachable');
      const { tables, dialect } = db();
      const outbox = getTableName(tables.securityEvent);
      const withOutbox = new DrizzleSessionStore(db().db, { tables, securityEventOutbox: true });
      await expect(withOutbox.checkSchema()).resolves.toBeUndefined();
      await db().execute(`alter table ${quote(dialect, outbox)} rename to ${quote(dialect, `${outbox}_aside`)}`);
      try {
        const error = await rejection(withOutbox.checkSchema());
        expect(error).toBeInstanceOf(StoreSchemaError);
        expect((error as StoreSchemaError).problems).toEqual([{ table: outbox, missingColumns: [], migration: '0007-security-event-outbox' }]);
        await expect(start(withOutbox, new DrizzleRateLimitStore(db().db, { tables }))).rejects.toBeInstanceOf(StoreSchemaError);
        await expect(new DrizzleSessionStore(db().db, { tables }).checkSchema()).resolves.toBeUndefined();
      } finally {
        await db().execute(`alter table ${quote(dialect, `${outbox}_aside`)} rename to ${quote(dialect, outbox)}`);
      }
      await expect(withOutbox.checkSchema()).resolves.toBeUndefined();
    });

    it.runIf(target.dialect === 'mysql')(
      'MySQL: a compared column with a case-insensitive collation is a StoreCollationError; startup refuses',
      async (test) => {
        if (database === null) return test.skip('server unreachable');
        const { tables } = db();
        const table = quote('mysql', getTableName(tables.session));
        const binary = await collationOf(db(), 'user_id');
        await db().execute(`alter table ${table} modify user_id varchar(255) character set utf8mb4 collate utf8mb4_general_ci not null`);
        try {
          const session = new DrizzleSessionStore(db().db, { tables });
          const error = await rejection(session.checkSchema());
          expect(error).toBeInstanceOf(StoreCollationError);
          expect(error).toBeInstanceOf(StoreSchemaError);
          expect((error as StoreCollationError).column).toBe(`${getTableName(tables.session)}.user_id (utf8mb4_general_ci)`);
          await expect(start(session, new DrizzleRateLimitStore(db().db, { tables }))).rejects.toBeInstanceOf(StoreCollationError);
        } finally {
          await db().execute(`alter table ${table} modify user_id varchar(255) character set utf8mb4 collate ${binary} not null`);
        }
      },
    );
  });
}

/** A column's collation as created (MariaDB: utf8mb4_nopad_bin, MySQL 8: utf8mb4_0900_bin). */
async function collationOf(database: TestDatabase, column: string): Promise<string> {
  const rows = (
    await (database.db as unknown as { execute(q: string): Promise<[Array<{ c: string }>]> }).execute(
      `select collation_name as c from information_schema.columns where table_schema = database() and table_name = '${getTableName(database.tables.session)}' and column_name = '${column}'`,
    )
  )[0];
  return rows[0]!.c;
}
