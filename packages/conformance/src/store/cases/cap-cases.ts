import { expect, it } from 'vitest';
import { HOUR, MINUTE, SECOND, at, newSessionFixture, newUserId, randomHex, testNow } from '../session-fixtures.js';
import { idsOf, mustFind, newestFirst, nth, type StoreCaseContext } from '../store-case-context.js';

export function capCases({ store }: StoreCaseContext): void {
  it("with a cap of 3, five logins leave the three newest active; each eviction happens at the newcomer's createdAt", async () => {
    const userId = newUserId();
    const base = testNow();
    const sessions = [0, 1, 2, 3, 4].map((i) => newSessionFixture({ userId, createdAt: at(base, i * SECOND) }));
    for (const session of sessions) {
      const created = await store().createSession({ session, maxActiveSessions: 3 });
      expect(created.expiredAt).toBeNull();
    }
    const active = await store().listActiveSessions(userId, at(base, MINUTE));
    expect(idsOf(active)).toEqual(idsOf(newestFirst(sessions.slice(2))));
    expect((await mustFind(store(), nth(sessions, 0).id)).expiredAt).toEqual(nth(sessions, 3).createdAt);
    expect((await mustFind(store(), nth(sessions, 1).id)).expiredAt).toEqual(nth(sessions, 4).createdAt);
  });

  it('breaks a createdAt tie by id: the smaller id is the older', async () => {
    const userId = newUserId();
    const base = testNow();
    const [small, large] = [randomHex(), randomHex()].sort() as [string, string];
    // Inserted larger id first, so insertion order cannot pass for the rule.
    await store().createSession({ session: newSessionFixture({ id: large, userId, createdAt: base }), maxActiveSessions: 2 });
    await store().createSession({ session: newSessionFixture({ id: small, userId, createdAt: base }), maxActiveSessions: 2 });
    const newcomer = newSessionFixture({ userId, createdAt: at(base, SECOND) });
    await store().createSession({ session: newcomer, maxActiveSessions: 2 });
    expect(idsOf(await store().listActiveSessions(userId, at(base, MINUTE)))).toEqual([newcomer.id, large]);
    expect((await mustFind(store(), small)).expiredAt).toEqual(newcomer.createdAt);
  });

  it('counts only active sessions: revoked and naturally ended ones do not use the cap', async () => {
    const userId = newUserId();
    const base = testNow();
    const ended = newSessionFixture({ userId, createdAt: base, expiresAt: at(base, HOUR) });
    const revoked = newSessionFixture({ userId, createdAt: at(base, SECOND) });
    const kept = newSessionFixture({ userId, createdAt: at(base, 2 * SECOND) });
    for (const session of [ended, revoked, kept]) await store().createSession({ session, maxActiveSessions: 10 });
    await store().expireSession(revoked.id, userId, at(base, 3 * SECOND));
    const newcomer = newSessionFixture({ userId, createdAt: at(base, 2 * HOUR) });
    await store().createSession({ session: newcomer, maxActiveSessions: 2 });
    expect(idsOf(await store().listActiveSessions(userId, at(base, 2 * HOUR)))).toEqual([newcomer.id, kept.id]);
    expect((await mustFind(store(), ended.id)).expiredAt).toBeNull();
    expect((await mustFind(store(), revoked.id)).expiredAt).toEqual(at(base, 3 * SECOND));
  });

  it('a cap of 1 keeps only the newest login', async () => {
    const userId = newUserId();
    const base = testNow();
    const older = newSessionFixture({ userId, createdAt: base });
    const newer = newSessionFixture({ userId, createdAt: at(base, SECOND) });
    await store().createSession({ session: older, maxActiveSessions: 1 });
    await store().createSession({ session: newer, maxActiveSessions: 1 });
    expect(idsOf(await store().listActiveSessions(userId, at(base, MINUTE)))).toEqual([newer.id]);
  });

  it('10 concurrent logins with a cap of 3 leave exactly the 3 newest active (the cap is atomic)', async () => {
    for (let round = 0; round < 5; round += 1) {
      const userId = newUserId();
      const base = testNow();
      const sessions = Array.from({ length: 10 }, (_, i) => newSessionFixture({ userId, createdAt: at(base, i) }));
      // Started in a shuffled order, so a newcomer may be older than sessions already in.
      const started = [...sessions].sort(() => Math.random() - 0.5);
      await Promise.all(started.map((session) => store().createSession({ session, maxActiveSessions: 3 })));
      const active = await store().listActiveSessions(userId, at(base, MINUTE));
      expect(active.length, `round ${round}: active sessions`).toBe(3);
      expect(idsOf(active), `round ${round}`).toEqual(idsOf(newestFirst(sessions).slice(0, 3)));
    }
  });
}
