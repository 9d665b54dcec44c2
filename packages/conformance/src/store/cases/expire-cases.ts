import { expect, it } from 'vitest';
import { HOUR, MINUTE, at, expectedRecord, newSessionFixture, newUserId, randomHex, testNow } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

export function expireCases({ store }: StoreCaseContext): void {
  it('revokes an active session of its owner at now and returns true', async () => {
    const session = newSessionFixture();
    await store().createSession({ session, maxActiveSessions: 10 });
    const now = at(session.createdAt, MINUTE);
    expect(await store().expireSession(session.id, session.userId, now)).toBe(true);
    expect(await mustFind(store(), session.id)).toEqual({ ...expectedRecord(session), expiredAt: now });
    expect(await store().listActiveSessions(session.userId, now)).toEqual([]);
  });

  it("returns false for another user's session and leaves it untouched", async () => {
    const session = newSessionFixture();
    await store().createSession({ session, maxActiveSessions: 10 });
    expect(await store().expireSession(session.id, newUserId(), at(session.createdAt, MINUTE))).toBe(false);
    expect(await mustFind(store(), session.id)).toEqual(expectedRecord(session));
  });

  it('returns false for an already revoked session and keeps the first expiredAt', async () => {
    const session = newSessionFixture();
    await store().createSession({ session, maxActiveSessions: 10 });
    const first = at(session.createdAt, MINUTE);
    expect(await store().expireSession(session.id, session.userId, first)).toBe(true);
    expect(await store().expireSession(session.id, session.userId, at(first, MINUTE))).toBe(false);
    expect((await mustFind(store(), session.id)).expiredAt).toEqual(first);
  });

  it('returns false for a session past expiresAt and leaves it untouched', async () => {
    const session = newSessionFixture({ expiresAt: at(testNow(), HOUR) });
    await store().createSession({ session, maxActiveSessions: 10 });
    expect(await store().expireSession(session.id, session.userId, at(session.expiresAt, MINUTE))).toBe(false);
    expect(await mustFind(store(), session.id)).toEqual(expectedRecord(session));
  });

  it('returns false for an unknown id', async () => {
    expect(await store().expireSession(randomHex(), newUserId(), testNow())).toBe(false);
  });
}

export function expireAllCases({ store }: StoreCaseContext): void {
  it('revokes every active session of the user at now, counts them, and spares other users', async () => {
    const userId = newUserId();
    const base = testNow();
    const active = [1, 2, 3].map((i) => newSessionFixture({ userId, createdAt: at(base, i * MINUTE) }));
    const revoked = newSessionFixture({ userId, createdAt: at(base, 4 * MINUTE) });
    const ended = newSessionFixture({ userId, createdAt: at(base, 5 * MINUTE), expiresAt: at(base, HOUR) });
    const stranger = newSessionFixture({ createdAt: at(base, 6 * MINUTE) });
    for (const session of [...active, revoked, ended, stranger]) {
      await store().createSession({ session, maxActiveSessions: 10 });
    }
    const revokedAt = at(base, 10 * MINUTE);
    expect(await store().expireSession(revoked.id, userId, revokedAt)).toBe(true);

    const now = at(base, 2 * HOUR);
    expect(await store().expireAllForUser(userId, now)).toBe(3);
    for (const session of active) {
      expect(await mustFind(store(), session.id)).toEqual({ ...expectedRecord(session), expiredAt: now });
    }
    expect((await mustFind(store(), revoked.id)).expiredAt).toEqual(revokedAt);
    expect(await mustFind(store(), ended.id)).toEqual(expectedRecord(ended));
    expect(await mustFind(store(), stranger.id)).toEqual(expectedRecord(stranger));
    expect(await store().listActiveSessions(userId, now)).toEqual([]);
  });

  it('returns 0 when the user has nothing active, and again on a second call', async () => {
    expect(await store().expireAllForUser(newUserId(), testNow())).toBe(0);
    const session = newSessionFixture();
    await store().createSession({ session, maxActiveSessions: 10 });
    const now = at(session.createdAt, MINUTE);
    expect(await store().expireAllForUser(session.userId, now)).toBe(1);
    expect(await store().expireAllForUser(session.userId, at(now, MINUTE))).toBe(0);
    expect((await mustFind(store(), session.id)).expiredAt).toEqual(now);
  });
}

export function expireAllExceptCases({ store }: StoreCaseContext): void {
  it('keeps the exceptSessionId session as it is, revokes the others, and does not count it', async () => {
    const userId = newUserId();
    const base = testNow();
    const sessions = [1, 2, 3].map((i) => newSessionFixture({ userId, createdAt: at(base, i * MINUTE) }));
    const kept = sessions[1]!;
    const others = sessions.filter((session) => session !== kept);
    const stranger = newSessionFixture({ createdAt: at(base, 4 * MINUTE) });
    for (const session of [...sessions, stranger]) await store().createSession({ session, maxActiveSessions: 10 });

    const now = at(base, HOUR);
    expect(await store().expireAllForUser(userId, now, { exceptSessionId: kept.id })).toBe(2);
    expect(await mustFind(store(), kept.id)).toEqual(expectedRecord(kept));
    for (const session of others) expect((await mustFind(store(), session.id)).expiredAt).toEqual(now);
    expect(await mustFind(store(), stranger.id)).toEqual(expectedRecord(stranger));
    expect((await store().listActiveSessions(userId, now)).map((s) => s.id)).toEqual([kept.id]);
    // Again: nothing left to revoke, and the kept session is still untouched.
    expect(await store().expireAllForUser(userId, at(now, MINUTE), { exceptSessionId: kept.id })).toBe(0);
    expect(await mustFind(store(), kept.id)).toEqual(expectedRecord(kept));
  });

  it("an exceptSessionId of another user's session (or an unknown id) keeps nothing of this user", async () => {
    const userId = newUserId();
    const mine = newSessionFixture({ userId });
    const theirs = newSessionFixture();
    for (const session of [mine, theirs]) await store().createSession({ session, maxActiveSessions: 10 });
    const now = at(mine.createdAt, MINUTE);
    expect(await store().expireAllForUser(userId, now, { exceptSessionId: theirs.id })).toBe(1);
    expect((await mustFind(store(), mine.id)).expiredAt).toEqual(now);
    expect(await mustFind(store(), theirs.id)).toEqual(expectedRecord(theirs));
    expect(await store().expireAllForUser(theirs.userId, now, { exceptSessionId: randomHex() })).toBe(1);
    expect((await mustFind(store(), theirs.id)).expiredAt).toEqual(now);
  });

  it('an empty options object, or no exceptSessionId, revokes every active session', async () => {
    const userId = newUserId();
    const sessions = [1, 2].map((i) => newSessionFixture({ userId, createdAt: at(testNow(), i * MINUTE) }));
    for (const session of sessions) await store().createSession({ session, maxActiveSessions: 10 });
    const now = at(testNow(), HOUR);
    expect(await store().expireAllForUser(userId, now, {})).toBe(2);
    expect(await store().listActiveSessions(userId, now)).toEqual([]);
  });
}
