import type { RotateOutcome } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { MINUTE, at, newSessionFixture, randomHex } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

export function rotateRaceCases({ store, raceSize, raceRepeats }: StoreCaseContext): void {
  it(
    `${raceSize} concurrent rotations of one jti: exactly one consumed, the session ends revoked (x${raceRepeats})`,
    async () => {
      for (let round = 0; round < raceRepeats; round += 1) {
        const session = newSessionFixture();
        await store().createSession({ session, maxActiveSessions: 10 });
        const now = at(session.createdAt, MINUTE);
        const nextJtis = Array.from({ length: raceSize }, () => randomHex());
        const outcomes: RotateOutcome[] = await Promise.all(
          nextJtis.map((nextJti) =>
            store().rotateRefresh({
              sessionId: session.id,
              userId: session.userId,
              presentedJti: session.refreshJti,
              nextJti,
              securityStamp: session.securityStamp,
              now,
            }),
          ),
        );

        const winners = outcomes.flatMap((outcome, index) => (outcome.status === 'consumed' ? [index] : []));
        expect(winners, `round ${round}: consumed count`).toHaveLength(1);
        const losers = outcomes.filter((outcome) => outcome.status !== 'consumed').map((outcome) => outcome.status);
        expect(
          losers.every((status) => status === 'reused' || status === 'expired'),
          `round ${round}: ${losers.join()}`,
        ).toBe(true);
        // At least the first loser found the session active with a stale jti.
        expect(losers, `round ${round}: nobody reported reuse`).toContain('reused');

        const after = await mustFind(store(), session.id);
        expect(after.expiredAt, `round ${round}: session not revoked`).toEqual(now);
        expect(after.refreshJti, `round ${round}: jti is not the winner's`).toBe(nextJtis[winners[0] as number]);
      }
    },
    30_000 + raceRepeats * raceSize * 200,
  );

  it('concurrent rotations with different presented jtis still leave one consistent session', async () => {
    const session = newSessionFixture();
    await store().createSession({ session, maxActiveSessions: 10 });
    const now = at(session.createdAt, MINUTE);
    const presented = [session.refreshJti, ...Array.from({ length: raceSize - 1 }, () => randomHex())];
    const outcomes = await Promise.all(
      presented.map((presentedJti) =>
        store().rotateRefresh({
          sessionId: session.id,
          userId: session.userId,
          presentedJti,
          nextJti: randomHex(),
          securityStamp: session.securityStamp,
          now,
        }),
      ),
    );
    const consumed = outcomes.filter((outcome) => outcome.status === 'consumed');
    // The right jti may lose to a forged one that revoked the session first, never the reverse.
    expect(consumed.length).toBeLessThanOrEqual(1);
    expect(outcomes.every((o) => o.status === 'consumed' || o.status === 'reused' || o.status === 'expired')).toBe(true);
    expect((await mustFind(store(), session.id)).expiredAt).toEqual(now);
  });
}
