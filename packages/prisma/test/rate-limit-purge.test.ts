import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaRateLimitStore as RateLimitStore } from '../src/index.js';
import { ALL_TARGETS, type TestDatabase } from './support/test-databases.js';

// The counters' purge (not part of the rate-limit kit): only ended windows go, counted, in batches.
for (const target of ALL_TARGETS) {
  describe(`rate-limit purgeExpired on ${target.label}`, () => {
    let database: TestDatabase | null = null;
    beforeAll(async () => {
      database = await target.open();
    });
    afterAll(async () => {
      await database?.close();
    });

    it('deletes the counters whose window ended, in batches of purgeBatchSize, counts them, and keeps a live one', async (test) => {
      if (database === null) return test.skip('server unreachable');
      const store = new RateLimitStore(database.prisma, { ...database.options, purgeBatchSize: 2 });
      const past = new Date(Date.now() - 3_600_000);
      const ended = ['a', 'b', 'c', 'd', 'e'].map((k) => `purge-${k}-${Math.random()}`);
      for (const key of ended) await store.hit(key, 60, past);
      await store.hit(ended[0]!, 60, past);
      const live = `purge-live-${Math.random()}`;
      await store.hit(live, 600, new Date());
      await store.hit(live, 600, new Date());
      // This run's own table: exactly its five ended counters, over three batches of two.
      expect(await store.purgeExpired(new Date())).toBe(ended.length);
      expect(await store.purgeExpired(new Date())).toBe(0);
      expect((await store.hit(live, 600, new Date())).count).toBe(3);
    });
  });
}
