import { expect, it } from 'vitest';
import { DAY, HOUR, MINUTE, SECOND, at, expectedRecord, newSessionFixture, randomHex, testNow } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

export function touchCases({ store }: StoreCaseContext): void {
  it('sets lastActivityAt and nothing else', async () => {
    const session = newSessionFixture();
    await store().createSession({ session, maxActiveSessions: 10 });
    const now = at(session.createdAt, 90 * SECOND + 7);
    await store().touchSession(session.id, now);
    expect(await mustFind(store(), session.id)).toEqual({ ...expectedRecord(session), lastActivityAt: now });
  });

  it('never revives a revoked session', async () => {
    const session = newSessionFixture();
    await store().createSession({ session, maxActiveSessions: 10 });
    const revokedAt = at(session.createdAt, MINUTE);
    await store().expireSession(session.id, session.userId, revokedAt);
    await store().touchSession(session.id, at(revokedAt, MINUTE));
    const after = await mustFind(store(), session.id);
    expect(after.expiredAt).toEqual(revokedAt);
    expect(await store().listActiveSessions(session.userId, at(revokedAt, MINUTE))).toEqual([]);
  });

  it('ignores an unknown id without creating anything', async () => {
    const id = randomHex();
    await expect(store().touchSession(id, testNow())).resolves.toBeUndefined();
    expect(await store().findSession(id)).toBeNull();
  });
}

/**
 * Purge deletes every expired row in the store, not just this case's, so its rows
 * live 400 days in the past: a purge there cannot reach the rows of other cases,
 * or of another suite sharing the database at the same time (whose clocks run
 * near the real time). A store whose server drops rows at `expiresAt` (a Redis
 * TTL) may have dropped the ended row already; it is counted only if still there.
 */
const PAST = 400 * DAY;

export function purgeCases({ store }: StoreCaseContext): void {
  it('deletes revoked and naturally ended sessions, keeps active ones, and counts what it deleted', async () => {
    const base = at(testNow(), -PAST);
    const future = at(testNow(), 14 * DAY);
    const active = newSessionFixture({ createdAt: base, expiresAt: future });
    const revoked = newSessionFixture({ createdAt: base, expiresAt: future });
    const ended = newSessionFixture({ createdAt: base, expiresAt: at(base, HOUR) });
    for (const session of [active, revoked, ended]) await store().createSession({ session, maxActiveSessions: 10 });
    expect(await store().expireSession(revoked.id, revoked.userId, at(base, MINUTE))).toBe(true);
    const endedWasStored = (await store().findSession(ended.id)) !== null;

    // Other rows this far back (older runs' leftovers) may go too, hence "at least".
    const purged = await store().purgeExpired(at(base, HOUR + SECOND));
    expect(purged).toBeGreaterThanOrEqual(endedWasStored ? 2 : 1);
    expect(await store().findSession(revoked.id)).toBeNull();
    expect(await store().findSession(ended.id)).toBeNull();
    expect(await mustFind(store(), active.id)).toEqual(expectedRecord(active));
  });

  it('keeps a session revoked later than now', async () => {
    const base = at(testNow(), -PAST);
    const future = at(testNow(), 14 * DAY);
    const revoked = newSessionFixture({ createdAt: base, expiresAt: future });
    await store().createSession({ session: revoked, maxActiveSessions: 10 });
    const revokedAt = at(base, 2 * HOUR);
    await store().expireSession(revoked.id, revoked.userId, revokedAt);
    await store().purgeExpired(at(base, HOUR));
    expect((await mustFind(store(), revoked.id)).expiredAt).toEqual(revokedAt);
  });

  it('returns a count (0 or more) when there is nothing of its own to delete', async () => {
    const purged = await store().purgeExpired(at(testNow(), -2 * PAST));
    expect(Number.isInteger(purged) && purged >= 0).toBe(true);
  });
}
