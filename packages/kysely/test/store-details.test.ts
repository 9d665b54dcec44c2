import { createHash } from 'node:crypto';
import { newSessionFixture, nextRotation, randomHex } from '@sessauth/conformance';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KyselyRateLimitStore, KyselySessionStore } from '../src/index.js';
import { ALL_TARGETS, type TestDatabase } from './support/test-databases.js';

// Behaviour this package promises beyond the shared contract, on every dialect.
for (const target of ALL_TARGETS) {
  describe(`kysely store details on ${target.label}`, () => {
    let database: TestDatabase | null = null;
    let store: KyselySessionStore;
    beforeAll(async () => {
      database = await target.open();
      if (database !== null) store = new KyselySessionStore(database.db, { tableName: database.tableName, purgeBatchSize: 3 });
    });
    afterAll(async () => {
      await database?.close();
    });

    it('matches ids, user ids and jtis byte for byte: a trailing space is another value', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const session = newSessionFixture();
      await store.createSession({ session, maxActiveSessions: 5 });
      expect(await store.findSession(`${session.id} `)).toBeNull();
      expect(await store.listActiveSessions(`${session.userId} `, new Date())).toEqual([]);
      const rotation = nextRotation(session);
      expect(await store.rotateRefresh({ ...rotation, userId: `${session.userId} ` })).toEqual({ status: 'wrong_user' });
      expect(await store.rotateRefresh({ ...rotation, presentedJti: `${session.refreshJti} ` })).toEqual({ status: 'reused' });
      expect((await store.findSession(session.id))?.expiredAt).not.toBeNull();
    });

    it('purges in batches: more rows than one batch are all deleted and counted once', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const userId = `user-${randomHex(8)}`;
      const base = Date.now() - 60_000;
      const sessions = Array.from({ length: 10 }, (_, i) => newSessionFixture({ userId, createdAt: new Date(base + i) }));
      for (const session of sessions) await store.createSession({ session, maxActiveSessions: 100 });
      expect(await store.expireAllForUser(userId, new Date(base + 1000))).toBe(10);
      expect(await store.purgeExpired(new Date())).toBeGreaterThanOrEqual(10);
      for (const session of sessions) expect(await store.findSession(session.id)).toBeNull();
    });

    it('touchSession never moves activity backwards', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const session = newSessionFixture();
      await store.createSession({ session, maxActiveSessions: 5 });
      const later = new Date(session.createdAt.getTime() + 120_000);
      await store.touchSession(session.id, later);
      await store.touchSession(session.id, new Date(session.createdAt.getTime() + 60_000));
      expect((await store.findSession(session.id))?.lastActivityAt).toEqual(later);
    });

    it("a login older than the cap's active sessions is itself the oldest: stored revoked", async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const userId = `user-${randomHex(8)}`;
      const base = Date.now();
      const newer = [1, 2].map((i) => newSessionFixture({ userId, createdAt: new Date(base + i * 1000) }));
      for (const session of newer) await store.createSession({ session, maxActiveSessions: 2 });
      const late = newSessionFixture({ userId, createdAt: new Date(base) });
      const created = await store.createSession({ session: late, maxActiveSessions: 2 });
      expect(created.expiredAt).toEqual(late.createdAt);
      const active = await store.listActiveSessions(userId, new Date(base + 5000));
      expect(active.map((s) => s.id)).toEqual(newer.map((s) => s.id).reverse());
    });

    it('rate-limit keys are stored as SHA-256 digests, never as given', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const limiter = new KyselyRateLimitStore(database.db, { tableName: database.rateLimitTableName });
      const key = `login:ip:203.0.113.${randomHex(1)}:alice-${randomHex(4)}`;
      await limiter.hit(key, 60, new Date());
      const { rows } = await sql<{ counter_key: string }>`select counter_key from ${sql.table(database.rateLimitTableName)}`.execute(database.db);
      const stored = rows.map((row) => row.counter_key);
      expect(stored).toContain(createHash('sha256').update(key).digest('base64url'));
      expect(stored.some((value) => value.includes('203.0.113') || value.includes('alice'))).toBe(false);
    });

    it('rate-limit purge deletes ended windows only', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const limiter = new KyselyRateLimitStore(database.db, { tableName: database.rateLimitTableName, purgeBatchSize: 2 });
      const now = Date.now();
      const ended = Array.from({ length: 5 }, () => `ended-${randomHex(4)}`);
      for (const key of ended) await limiter.hit(key, 1, new Date(now - 10_000));
      const live = `live-${randomHex(4)}`;
      await limiter.hit(live, 60, new Date(now));
      expect(await limiter.purgeExpired(new Date(now))).toBeGreaterThanOrEqual(5);
      // A purged key starts over at 1; the live one keeps counting.
      expect((await limiter.hit(ended[0] ?? '', 60, new Date(now))).count).toBe(1);
      expect((await limiter.hit(live, 60, new Date(now))).count).toBe(2);
    });
  });
}
