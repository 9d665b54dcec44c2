import type { SessionRecord, SessionStore } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { MINUTE, at, expectedRecord, newSessionFixture, newUserId, randomHex } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

/** The store's `findSessions`, bound to it (the suite skips the group for a store without it). */
function batchRead(store: SessionStore): (ids: readonly string[]) => Promise<Map<string, SessionRecord>> {
  const read = store.findSessions;
  if (read === undefined) throw new Error('this store has no findSessions: the case should have been skipped');
  return (ids) => read.call(store, ids);
}

/** More ids than any store's statement or pipeline bound (64 in this project's stores). */
const LARGER_THAN_A_BATCH = 150;

/** `findSessions`: the batched read the core coalesces the guard's reads into. */
export function findSessionsCases({ store }: StoreCaseContext): void {
  it('gives each found row exactly as findSession does; unknown ids are absent; duplicates are allowed', async () => {
    const userId = newUserId();
    const sessions = [newSessionFixture({ userId }), newSessionFixture({ userId }), newSessionFixture({ location: null, userAgent: null })];
    for (const session of sessions) await store().createSession({ session, maxActiveSessions: 10 });
    const unknown = randomHex();
    const [first, second, third] = sessions.map((session) => session.id) as [string, string, string];
    const found = await batchRead(store())([first, unknown, second, first, third]);
    expect([...found.keys()].sort()).toEqual([first, second, third].sort());
    expect(found.has(unknown)).toBe(false);
    for (const session of sessions) {
      expect(found.get(session.id)).toEqual(expectedRecord(session));
      expect(found.get(session.id)).toEqual(await mustFind(store(), session.id));
    }
    expect(await batchRead(store())([])).toEqual(new Map());
    expect(await batchRead(store())([randomHex(), randomHex()])).toEqual(new Map());
  });

  it('reads every row anew: a revocation, a rotation and a rename made after an earlier batch are seen', async () => {
    const userId = newUserId();
    const [kept, revoked, rotated] = [newSessionFixture({ userId }), newSessionFixture({ userId }), newSessionFixture({ userId })];
    for (const session of [kept, revoked, rotated]) await store().createSession({ session, maxActiveSessions: 10 });
    const ids = [kept.id, revoked.id, rotated.id];
    // The first batch may warm whatever the store keeps in process (an owner cache, a statement).
    const before = await batchRead(store())(ids);
    expect(before.get(revoked.id)?.expiredAt).toBeNull();
    const now = at(kept.createdAt, MINUTE);
    expect(await store().expireSession(revoked.id, userId, now)).toBe(true);
    const rotation = await store().rotateRefresh({
      sessionId: rotated.id,
      userId,
      presentedJti: rotated.refreshJti,
      nextJti: randomHex(),
      securityStamp: rotated.securityStamp,
      now,
    });
    expect(rotation.status).toBe('consumed');
    expect(await store().renameSession(kept.id, userId, 'Work laptop', now)).toBe(true);
    const after = await batchRead(store())(ids);
    for (const id of ids) expect(after.get(id), id).toEqual(await mustFind(store(), id));
    expect(after.get(revoked.id)?.expiredAt).toEqual(now);
    expect(after.get(rotated.id)?.refreshJti).not.toBe(rotated.refreshJti);
    expect(after.get(kept.id)?.name).toBe('Work laptop');
  });

  it(`shows revoked and ended sessions as findSession does (the caller decides), also after expireAllForUser`, async () => {
    const userId = newUserId();
    const sessions = [0, 1, 2].map(() => newSessionFixture({ userId }));
    for (const session of sessions) await store().createSession({ session, maxActiveSessions: 10 });
    const ended = newSessionFixture({ expiresAt: at(sessions[0]?.createdAt ?? new Date(), MINUTE) });
    await store().createSession({ session: ended, maxActiveSessions: 10 });
    const now = at(ended.createdAt, 2 * MINUTE);
    expect(await store().expireAllForUser(userId, now)).toBe(3);
    const ids = [...sessions.map((session) => session.id), ended.id];
    const found = await batchRead(store())(ids);
    expect(found.size).toBe(4);
    for (const id of ids) expect(found.get(id), id).toEqual(await mustFind(store(), id));
    for (const session of sessions) expect(found.get(session.id)?.expiredAt).toEqual(now);
    expect(found.get(ended.id)?.expiredAt).toBeNull();
  });

  it(`takes a list longer than a statement's bound (${LARGER_THAN_A_BATCH} ids, a third unknown) and misses none`, async () => {
    const sessions = Array.from({ length: (LARGER_THAN_A_BATCH * 2) / 3 }, () => newSessionFixture());
    await Promise.all(sessions.map((session) => store().createSession({ session, maxActiveSessions: 10 })));
    const unknown = Array.from({ length: LARGER_THAN_A_BATCH / 3 }, () => randomHex());
    const ids = [...sessions.map((session) => session.id), ...unknown].sort();
    const found = await batchRead(store())(ids);
    expect(found.size).toBe(sessions.length);
    for (const session of sessions) expect(found.get(session.id), session.id).toEqual(expectedRecord(session));
    for (const id of unknown) expect(found.has(id)).toBe(false);
  });
}
