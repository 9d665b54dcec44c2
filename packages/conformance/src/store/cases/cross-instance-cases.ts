import type { NewSession, RotateOutcome, RotateRefreshInput, SessionStore } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { MINUTE, SECOND, at, expectedRecord, newSessionFixture, newUserId, randomHex, testNow } from '../session-fixtures.js';
import { idsOf, mustFind, newestFirst, type StoreCaseContext } from '../store-case-context.js';

/** A rotation of `session` by its owner with its stamp, presenting `presentedJti`, at `now`. */
function rotation(session: NewSession, presentedJti: string, now: Date): RotateRefreshInput {
  return {
    sessionId: session.id,
    userId: session.userId,
    presentedJti,
    nextJti: randomHex(),
    securityStamp: session.securityStamp,
    now,
  };
}

async function created(store: SessionStore, overrides: Partial<NewSession> = {}): Promise<NewSession> {
  const session = newSessionFixture(overrides);
  await store.createSession({ session, maxActiveSessions: 10 });
  return session;
}

/**
 * Two instances over one backing service, as two app servers behind a load balancer:
 * whatever one instance writes, the other must see on its next call, whatever it had
 * read (and may have cached) before. "A" is the suite's store, "B" the second instance.
 */
export function crossInstanceCases({ store: a, secondStore: b, raceSize, raceRepeats }: StoreCaseContext): void {
  it('create on A: B finds the same record and lists it, newest first', async () => {
    const userId = newUserId();
    const base = testNow();
    const older = await created(a(), { userId, createdAt: base });
    const newer = await created(a(), { userId, createdAt: at(base, SECOND) });
    expect(await mustFind(b(), older.id)).toEqual(expectedRecord(older));
    expect(await b().listActiveSessions(userId, at(base, MINUTE))).toEqual([expectedRecord(newer), expectedRecord(older)]);
  });

  it('revoke on A: B, which had read the session, refuses it at once', async () => {
    const session = await created(a());
    expect((await mustFind(b(), session.id)).expiredAt).toBeNull();
    const revokedAt = at(session.createdAt, MINUTE);
    expect(await a().expireSession(session.id, session.userId, revokedAt)).toBe(true);
    expect((await mustFind(b(), session.id)).expiredAt).toEqual(revokedAt);
    expect(await b().listActiveSessions(session.userId, at(revokedAt, SECOND))).toEqual([]);
    expect(await b().rotateRefresh(rotation(session, session.refreshJti, at(revokedAt, SECOND)))).toEqual({ status: 'expired' });
    expect(await b().expireSession(session.id, session.userId, at(revokedAt, SECOND))).toBe(false);
  });

  it('expire-all on B: the sessions A created and had read are refused on A', async () => {
    const userId = newUserId();
    const base = testNow();
    const sessions = [await created(a(), { userId, createdAt: base }), await created(a(), { userId, createdAt: at(base, SECOND) })];
    expect(await a().listActiveSessions(userId, at(base, MINUTE))).toHaveLength(2);
    const now = at(base, 2 * MINUTE);
    expect(await b().expireAllForUser(userId, now)).toBe(2);
    expect(await a().listActiveSessions(userId, at(now, SECOND))).toEqual([]);
    for (const session of sessions) {
      expect((await mustFind(a(), session.id)).expiredAt).toEqual(now);
      expect(await a().rotateRefresh(rotation(session, session.refreshJti, at(now, SECOND)))).toEqual({ status: 'expired' });
    }
  });

  it('rotate on A, the replaced jti presented on B: reuse, and the session is revoked for both', async () => {
    const session = await created(a());
    const first = rotation(session, session.refreshJti, at(session.createdAt, MINUTE));
    expect((await a().rotateRefresh(first)).status).toBe('consumed');
    expect((await mustFind(b(), session.id)).refreshJti).toBe(first.nextJti);
    const replayAt = at(session.createdAt, 2 * MINUTE);
    expect(await b().rotateRefresh(rotation(session, session.refreshJti, replayAt))).toEqual({ status: 'reused' });
    expect((await mustFind(a(), session.id)).expiredAt).toEqual(replayAt);
    // The winner's replacement is dead on the instance that issued it, too.
    const late = rotation(session, first.nextJti, at(replayAt, MINUTE));
    expect(await a().rotateRefresh(late)).toEqual({ status: 'expired' });
  });

  it('rotate on A, then the replacement on B: the chain continues across instances', async () => {
    const session = await created(a());
    const first = rotation(session, session.refreshJti, at(session.createdAt, MINUTE));
    expect((await a().rotateRefresh(first)).status).toBe('consumed');
    const second = rotation(session, first.nextJti, at(session.createdAt, 2 * MINUTE));
    expect((await b().rotateRefresh(second)).status).toBe('consumed');
    const seen = await mustFind(a(), session.id);
    expect(seen.refreshJti).toBe(second.nextJti);
    expect(seen.lastActivityAt).toEqual(second.now);
    expect(seen.expiredAt).toBeNull();
  });

  it(
    `${raceSize} concurrent rotations of one jti split over A and B: exactly one consumed (x${Math.min(raceRepeats, 5)})`,
    async () => {
      for (let round = 0; round < Math.min(raceRepeats, 5); round += 1) {
        const session = await created(a());
        const now = at(session.createdAt, MINUTE);
        const calls = Array.from({ length: raceSize }, () => rotation(session, session.refreshJti, now));
        const outcomes: RotateOutcome[] = await Promise.all(calls.map((input, i) => (i % 2 === 0 ? a() : b()).rotateRefresh(input)));
        const winners = outcomes.flatMap((outcome, index) => (outcome.status === 'consumed' ? [index] : []));
        expect(winners, `round ${round}: consumed count`).toHaveLength(1);
        const losers = outcomes.filter((outcome) => outcome.status !== 'consumed').map((outcome) => outcome.status);
        expect(
          losers.every((status) => status === 'reused' || status === 'expired'),
          `round ${round}: ${losers.join()}`,
        ).toBe(true);
        for (const instance of [a(), b()]) {
          const after = await mustFind(instance, session.id);
          expect(after.expiredAt, `round ${round}: session not revoked`).toEqual(now);
          expect(after.refreshJti, `round ${round}: jti is not the winner's`).toBe(calls[winners[0] as number]?.nextJti);
        }
      }
    },
    30_000 + raceSize * 500,
  );

  it('the cap holds across instances: logins alternating over A and B keep the newest active', async () => {
    const userId = newUserId();
    const base = testNow();
    const sessions = [0, 1, 2, 3].map((i) => newSessionFixture({ userId, createdAt: at(base, i * SECOND) }));
    for (const [i, session] of sessions.entries()) {
      await (i % 2 === 0 ? a() : b()).createSession({ session, maxActiveSessions: 2 });
    }
    const now = at(base, MINUTE);
    const newest = idsOf(newestFirst(sessions).slice(0, 2));
    expect(idsOf(await a().listActiveSessions(userId, now))).toEqual(newest);
    expect(idsOf(await b().listActiveSessions(userId, now))).toEqual(newest);
  });

  it('concurrent logins over A and B with a cap of 3 leave exactly the 3 newest active', async () => {
    const userId = newUserId();
    const base = testNow();
    const sessions = Array.from({ length: 10 }, (_, i) => newSessionFixture({ userId, createdAt: at(base, i) }));
    const started = [...sessions].sort(() => Math.random() - 0.5);
    await Promise.all(started.map((session, i) => (i % 2 === 0 ? a() : b()).createSession({ session, maxActiveSessions: 3 })));
    expect(idsOf(await b().listActiveSessions(userId, at(base, MINUTE)))).toEqual(idsOf(newestFirst(sessions).slice(0, 3)));
  });

  it('touch on B is seen on A, which had read the session', async () => {
    const session = await created(a());
    expect((await mustFind(a(), session.id)).lastActivityAt).toEqual(session.createdAt);
    const now = at(session.createdAt, 90 * SECOND);
    await b().touchSession(session.id, now);
    expect((await mustFind(a(), session.id)).lastActivityAt).toEqual(now);
  });
}
