import type { AdminSessionQuery, NewSession, SessionRecord, SessionStore } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { HOUR, MINUTE, at, expectedRecord, newSessionFixture, newUserId, randomHex, testNow } from '../session-fixtures.js';
import { adminListing, idsOf, newestFirst, nth, type StoreCaseContext } from '../store-case-context.js';

type FirstPageQuery = Omit<AdminSessionQuery, 'after'>;

/** Follows `nextCursor` to the end; checks every page against `limit` and gives up on runaway listings. */
async function readAllPages(store: SessionStore, query: FirstPageQuery, maxPages: number): Promise<SessionRecord[]> {
  const rows: SessionRecord[] = [];
  let after: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const result = await adminListing(store)(after === undefined ? query : { ...query, after });
    expect(result.sessions.length).toBeLessThanOrEqual(query.limit);
    rows.push(...result.sessions);
    if (result.nextCursor === null) return rows;
    expect(typeof result.nextCursor).toBe('string');
    after = result.nextCursor;
  }
  throw new Error(`the listing did not end within ${maxPages} pages`);
}

/** Seven sessions of one user, two createdAt ties among them, inserted out of order. */
async function seedUser(store: SessionStore, userId: string, base: Date): Promise<NewSession[]> {
  const offsets = [3, 1, 5, 1, 4, 3, 2].map((minutes) => minutes * MINUTE);
  const sessions = offsets.map((offset) => newSessionFixture({ userId, createdAt: at(base, offset), id: randomHex() }));
  for (const session of sessions) await store.createSession({ session, maxActiveSessions: 100 });
  return sessions;
}

export function adminCases({ store }: StoreCaseContext): void {
  it('pages one user newest first (createdAt desc, id desc) with no duplicate and no gap', async () => {
    const userId = newUserId();
    const base = testNow();
    const sessions = await seedUser(store(), userId, base);
    const expected = newestFirst(sessions).map(expectedRecord);
    for (const limit of [1, 2, 3, 7]) {
      const rows = await readAllPages(store(), { userId, now: base, limit }, sessions.length + 2);
      expect(idsOf(rows), `limit ${limit}`).toEqual(idsOf(expected));
      expect(rows, `limit ${limit}`).toEqual(expected);
    }
  });

  it('ends with a null cursor when the first page holds everything', async () => {
    const userId = newUserId();
    const sessions = await seedUser(store(), userId, testNow());
    const page = await adminListing(store())({ userId, now: testNow(), limit: sessions.length + 1 });
    expect(page.sessions).toHaveLength(sessions.length);
    expect(page.nextCursor).toBeNull();
    const none = await adminListing(store())({ userId: newUserId(), now: testNow(), limit: 5 });
    expect(none).toEqual({ sessions: [], nextCursor: null });
  });

  it("filters by status at now: 'active' is active at now, 'revoked' is revoked or naturally ended", async () => {
    const userId = newUserId();
    const base = testNow();
    const sessions = await seedUser(store(), userId, base);
    const [revokedOne, revokedTwo] = [nth(sessions, 0), nth(sessions, 3)];
    await store().expireSession(revokedOne.id, userId, at(base, 10 * MINUTE));
    await store().expireSession(revokedTwo.id, userId, at(base, 10 * MINUTE));
    const ended = newSessionFixture({ userId, createdAt: at(base, 6 * MINUTE), expiresAt: at(base, HOUR) });
    await store().createSession({ session: ended, maxActiveSessions: 100 });
    const now = at(base, HOUR);

    const revokedIds = new Set([revokedOne.id, revokedTwo.id, ended.id]);
    const all = newestFirst([...sessions, ended]);
    const active = await readAllPages(store(), { userId, status: 'active', now, limit: 2 }, 10);
    expect(idsOf(active)).toEqual(idsOf(all.filter((s) => !revokedIds.has(s.id))));
    const revoked = await readAllPages(store(), { userId, status: 'revoked', now, limit: 2 }, 10);
    expect(idsOf(revoked)).toEqual(idsOf(all.filter((s) => revokedIds.has(s.id))));
    expect(revoked.find((s) => s.id === revokedOne.id)?.expiredAt).toEqual(at(base, 10 * MINUTE));
    expect(revoked.find((s) => s.id === ended.id)?.expiredAt).toBeNull();
    const everything = await readAllPages(store(), { userId, now, limit: 3 }, 10);
    expect(idsOf(everything)).toEqual(idsOf(all));
  });

  it('lists across users newest first, each session once, when no user is given', async () => {
    const base = testNow();
    const alice = newUserId();
    const mine = [...(await seedUser(store(), alice, base)), ...(await seedUser(store(), newUserId(), base))];
    const revoked = nth(mine, 0);
    await store().expireSession(revoked.id, alice, at(base, 10 * MINUTE));
    const mineIds = new Set(idsOf(mine));
    for (const status of [undefined, 'active', 'revoked'] as const) {
      const wanted = newestFirst(mine).filter((s) => status === undefined || (s.id === revoked.id) === (status === 'revoked'));
      const query = { now: at(base, 20 * MINUTE), limit: 5, ...(status === undefined ? {} : { status }) };
      const seen = await readUntilSeen(store(), query, new Set(idsOf(wanted)));
      const label = status ?? 'any status';
      expect(new Set(idsOf(seen)).size, `${label}: a session came twice`).toBe(seen.length);
      seen.forEach((row, i) => {
        if (i > 0) expect(nth(seen, i - 1).createdAt.getTime(), label).toBeGreaterThanOrEqual(row.createdAt.getTime());
      });
      expect(idsOf(seen.filter((s) => mineIds.has(s.id))), label).toEqual(idsOf(wanted));
    }
  });
}

/**
 * Other cases, or other suites, share the store: reads pages until every wanted id
 * has gone by instead of reading the whole table.
 */
async function readUntilSeen(store: SessionStore, query: FirstPageQuery, wanted: Set<string>): Promise<SessionRecord[]> {
  const seen: SessionRecord[] = [];
  let after: string | undefined;
  for (let page = 0; page < 2000; page += 1) {
    const result = await adminListing(store)(after === undefined ? query : { ...query, after });
    expect(result.sessions.length).toBeLessThanOrEqual(query.limit);
    seen.push(...result.sessions);
    const ids = new Set(idsOf(seen));
    if (result.nextCursor === null || [...wanted].every((id) => ids.has(id))) return seen;
    after = result.nextCursor;
  }
  throw new Error('the listing did not reach the wanted sessions within 2000 pages');
}
