import { createSessauth, type Logger, type RateLimitStore, type SessionStore, StoreSchemaError } from '@sessauth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaRateLimitStore, PrismaSessionStore, StoreCollationError } from '../src/index.js';
import { ALL_TARGETS, type TestDatabase } from './support/test-databases.js';

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

const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (e: unknown) => e,
  );

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
    const q = (name: string) => (target.provider === 'mysql' ? `\`${name}\`` : `"${name}"`);

    it('tables never created (a @@map the options do not name): StoreSchemaError naming each table and its step; startup refuses', async (test) => {
      if (database === null) return test.skip('server unreachable');
      const session = new PrismaSessionStore(db().prisma, { ...db().options, tableName: 'sessauth_never_created' });
      const rateLimit = new PrismaRateLimitStore(db().prisma, { ...db().options, tableName: 'sessauth_never_created_rl' });
      const error = await rejection(session.checkSchema());
      expect(error).toBeInstanceOf(StoreSchemaError);
      const expected = [{ table: 'sessauth_never_created', missingColumns: [], migration: '0001-create-session' }];
      if (target.provider === 'mysql')
        expected.push({ table: 'sessauth_never_created_user_lock', missingColumns: [], migration: '0001-create-session' });
      expect((error as StoreSchemaError).problems).toEqual(expected);
      // The models (their @@map) answer, the named table does not: the fix says to name the mapped table.
      expect((error as StoreSchemaError).fix).toContain('@@map names another table than "sessauth_never_created"');
      const limiterError = await rejection(rateLimit.checkSchema());
      expect((limiterError as StoreSchemaError).problems).toEqual([
        { table: 'sessauth_never_created_rl', missingColumns: [], migration: '0002-create-rate-limit' },
      ]);
      await expect(start(session, rateLimit)).rejects.toBeInstanceOf(StoreSchemaError);
    });

    it('a column of a later step missing (name, 0003-session-name): named with its step; the rate limiter still verifies', async (test) => {
      if (database === null) return test.skip('server unreachable');
      const session = new PrismaSessionStore(db().prisma, db().options);
      await expect(session.checkSchema()).resolves.toBeUndefined();
      await db().execute(`alter table ${q('sessauth_session')} drop column ${q('name')}`);
      try {
        const error = await rejection(session.checkSchema());
        expect(error).toBeInstanceOf(StoreSchemaError);
        expect((error as StoreSchemaError).problems).toEqual([
          { table: 'sessauth_session', missingColumns: ['name'], migration: '0003-session-name' },
        ]);
        await expect(new PrismaRateLimitStore(db().prisma, db().options).checkSchema()).resolves.toBeUndefined();
      } finally {
        await db().execute(`alter table ${q('sessauth_session')} add column ${q('name')} varchar(64)`);
      }
      await expect(session.checkSchema()).resolves.toBeUndefined();
    });

    it('the outbox option: a missing outbox table is named with its step (0007-security-event-outbox); without the option it is never checked', async (test) => {
      if (database === null) return test.skip('server unreachable');
      const outbox = 'sessauth_session_security_event';
      const withOutbox = new PrismaSessionStore(db().prisma, { ...db().options, securityEventOutbox: true });
      await expect(withOutbox.checkSchema()).resolves.toBeUndefined();
      await db().execute(`alter table ${q(outbox)} rename to ${q(`${outbox}_aside`)}`);
      try {
        const error = await rejection(withOutbox.checkSchema());
        expect(error).toBeInstanceOf(StoreSchemaError);
        expect((error as StoreSchemaError).problems).toEqual([{ table: outbox, missingColumns: [], migration: '0007-security-event-outbox' }]);
        await expect(start(withOutbox, new PrismaRateLimitStore(db().prisma, db().options))).rejects.toBeInstanceOf(StoreSchemaError);
        await expect(new PrismaSessionStore(db().prisma, db().options).checkSchema()).resolves.toBeUndefined();
      } finally {
        await db().execute(`alter table ${q(`${outbox}_aside`)} rename to ${q(outbox)}`);
      }
      await expect(withOutbox.checkSchema()).resolves.toBeUndefined();
    });

    it.runIf(target.provider === 'mysql')(
      'MySQL: a compared column with a case-insensitive collation is a StoreCollationError; startup refuses',
      async (test) => {
        if (database === null) return test.skip('server unreachable');
        await db().execute(
          'alter table `sessauth_rate_limit` modify counter_key varchar(64) character set utf8mb4 collate utf8mb4_general_ci not null',
        );
        const rateLimit = new PrismaRateLimitStore(db().prisma, db().options);
        const error = await rejection(rateLimit.checkSchema());
        expect(error).toBeInstanceOf(StoreCollationError);
        expect((error as StoreCollationError).column).toBe('sessauth_rate_limit.counter_key (utf8mb4_general_ci)');
        await expect(start(new PrismaSessionStore(db().prisma, db().options), rateLimit)).rejects.toBeInstanceOf(StoreCollationError);
      },
    );

    // Last: it drops this run's session table.
    it('tables never created at all: the fix says to add the models and the migration', async (test) => {
      if (database === null) return test.skip('server unreachable');
      await db().execute(`drop table ${q('sessauth_session')}`);
      const error = await rejection(new PrismaSessionStore(db().prisma, db().options).checkSchema());
      expect((error as StoreSchemaError).problems[0]).toEqual({ table: 'sessauth_session', missingColumns: [], migration: '0001-create-session' });
      expect((error as Error).message).toContain('prisma migrate');
    });
  });
}
