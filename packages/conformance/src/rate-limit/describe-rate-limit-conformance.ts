import type { RateLimitStore } from '@sessauth/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomHex } from '../store/session-fixtures.js';

/** A rate-limit store to prove, and how to let go of it after the suite. */
export interface RateLimitStoreUnderTest {
  store: RateLimitStore;
  close(): Promise<void>;
}

function newKey(): string {
  return `sessauth-conformance:${randomHex(8)}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Registers the rate-limit contract (vitest) for one `RateLimitStore`, on fresh
 * random keys. `makeStore` resolving to `null` skips every case (see `reachService`).
 * Times are real: a store may hand the window to its server as a TTL.
 */
export function describeRateLimitConformance(name: string, makeStore: () => Promise<RateLimitStoreUnderTest | null>): void {
  describe(`rate-limit store conformance: ${name}`, { timeout: 30_000 }, () => {
    let underTest: RateLimitStoreUnderTest | null = null;
    beforeAll(async () => {
      underTest = await makeStore();
    });
    afterAll(async () => {
      await underTest?.close();
    });
    beforeEach((test) => {
      if (underTest === null) test.skip(`${name}: store unavailable`);
    });
    const store = (): RateLimitStore => {
      if (underTest === null) throw new Error(`${name}: store unavailable`);
      return underTest.store;
    };

    it('counts up by one per hit, within one window ending windowSec after the first hit', async () => {
      const key = newKey();
      const now = new Date();
      const first = await store().hit(key, 60, now);
      expect(first.count).toBe(1);
      expect(first.resetAt).toBeInstanceOf(Date);
      // The window ends 60 s after the first hit; a store may round to its server's clock.
      expect(Math.abs(first.resetAt.getTime() - (now.getTime() + 60_000))).toBeLessThanOrEqual(1000);
      for (const expected of [2, 3, 4]) {
        const next = await store().hit(key, 60, new Date());
        expect(next.count).toBe(expected);
        expect(Math.abs(next.resetAt.getTime() - first.resetAt.getTime())).toBeLessThanOrEqual(1000);
      }
    });

    it('keeps keys independent', async () => {
      const [a, b] = [newKey(), newKey()];
      await store().hit(a, 60, new Date());
      await store().hit(a, 60, new Date());
      expect((await store().hit(b, 60, new Date())).count).toBe(1);
      expect((await store().hit(a, 60, new Date())).count).toBe(3);
    });

    it('starts a new window after windowSec', async () => {
      const key = newKey();
      await store().hit(key, 1, new Date());
      expect((await store().hit(key, 1, new Date())).count).toBe(2);
      await sleep(1100);
      const now = new Date();
      const fresh = await store().hit(key, 1, now);
      expect(fresh.count).toBe(1);
      expect(fresh.resetAt.getTime()).toBeGreaterThan(now.getTime());
    });

    it('gives 50 concurrent hits the counts 1..50, each exactly once', async () => {
      const key = newKey();
      const results = await Promise.all(Array.from({ length: 50 }, () => store().hit(key, 60, new Date())));
      const counts = results.map((result) => result.count).sort((x, y) => x - y);
      expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });

    // The optional multi-key hit (`hitMany`): the login's budgets in one round trip.
    it('hitMany() counts each key as hit() would, in order, when none is refused', async (test) => {
      const hitMany = store().hitMany;
      if (hitMany === undefined) return test.skip(`${name}: the store has no hitMany (an optional capability)`);
      const [a, b, c] = [newKey(), newKey(), newKey()];
      await store().hit(b, 60, new Date());
      const now = new Date();
      const results = await hitMany.call(
        store(),
        [
          { key: a, windowSec: 60, limit: 5 },
          { key: b, windowSec: 30, limit: 5 },
          { key: c, windowSec: 10, limit: 5 },
        ],
        now,
      );
      expect(results.map((result) => result.count)).toEqual([1, 2, 1]);
      expect(Math.abs((results[0]?.resetAt.getTime() ?? 0) - (now.getTime() + 60_000))).toBeLessThanOrEqual(1000);
      expect(Math.abs((results[2]?.resetAt.getTime() ?? 0) - (now.getTime() + 10_000))).toBeLessThanOrEqual(1000);
      // The same counters hit() sees.
      expect((await store().hit(a, 60, new Date())).count).toBe(2);
      expect((await store().hit(c, 10, new Date())).count).toBe(2);
    });

    it('hitMany() stops at the first key past its limit: the keys after it are not counted', async (test) => {
      const hitMany = store().hitMany;
      if (hitMany === undefined) return test.skip(`${name}: the store has no hitMany (an optional capability)`);
      const [a, b, c] = [newKey(), newKey(), newKey()];
      await store().hit(b, 60, new Date());
      const hits = [
        { key: a, windowSec: 60, limit: 5 },
        { key: b, windowSec: 60, limit: 1 },
        { key: c, windowSec: 60, limit: 5 },
      ];
      const refused = await hitMany.call(store(), hits, new Date());
      expect(refused.map((result) => result.count)).toEqual([1, 2]);
      // A refusal of the first key counts nothing after it.
      const first = await hitMany.call(store(), [{ key: b, windowSec: 60, limit: 1 }, ...hits.slice(2)], new Date());
      expect(first.map((result) => result.count)).toEqual([3]);
      expect((await store().hit(c, 60, new Date())).count).toBe(1);
      expect((await store().hit(a, 60, new Date())).count).toBe(2);
    });

    it('hitMany() starts a new window for a key whose window ended, as hit() does', async (test) => {
      const hitMany = store().hitMany;
      if (hitMany === undefined) return test.skip(`${name}: the store has no hitMany (an optional capability)`);
      const [a, b] = [newKey(), newKey()];
      for (let hit = 0; hit < 3; hit += 1) await store().hit(a, 1, new Date());
      await store().hit(b, 60, new Date());
      await sleep(1100);
      const now = new Date();
      const results = await hitMany.call(
        store(),
        [
          { key: a, windowSec: 1, limit: 2 },
          { key: b, windowSec: 60, limit: 5 },
        ],
        now,
      );
      // Past its window, `a` counts from 1 again (within its limit of 2), so `b` is counted too.
      expect(results.map((result) => result.count)).toEqual([1, 2]);
      expect(results[0]?.resetAt.getTime()).toBeGreaterThan(now.getTime());
    });

    it('hitMany() gives 30 concurrent calls the counts 1..30 on every key, each exactly once', async (test) => {
      const hitMany = store().hitMany;
      if (hitMany === undefined) return test.skip(`${name}: the store has no hitMany (an optional capability)`);
      const [a, b] = [newKey(), newKey()];
      const hits = [
        { key: a, windowSec: 60, limit: 1000 },
        { key: b, windowSec: 60, limit: 1000 },
      ];
      const results = await Promise.all(Array.from({ length: 30 }, () => hitMany.call(store(), hits, new Date())));
      for (const index of [0, 1]) {
        const counts = results.map((result) => result[index]?.count ?? 0).sort((x, y) => x - y);
        expect(counts).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      }
    });

    // The optional start-up check that createSessauth runs (a third-party store need not have it).
    it('checkSchema() (verify() before the rename) resolves on the store under test, when the store has it', async (test) => {
      const check = store().checkSchema ?? store().verify;
      if (check === undefined) return test.skip(`${name}: the store has no checkSchema (an optional capability)`);
      await expect(check.call(store())).resolves.toBeUndefined();
    });
  });
}
