import type { NewSession, RotateRefreshInput, SessionStore } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { MINUTE, SECOND, at, newSessionFixture, randomHex } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

/** A rotation of `session` by its owner with its current jti and stamp, at `now`, with an idle cutoff. */
function rotation(session: NewSession, now: Date, idleCutoff: Date | undefined, presentedJti = session.refreshJti): RotateRefreshInput {
  return {
    sessionId: session.id,
    userId: session.userId,
    presentedJti,
    nextJti: randomHex(),
    securityStamp: session.securityStamp,
    now,
    ...(idleCutoff === undefined ? {} : { idleCutoff }),
  };
}

async function created(store: SessionStore): Promise<NewSession> {
  const session = newSessionFixture();
  await store.createSession({ session, maxActiveSessions: 10 });
  return session;
}

/** The idle timeout inside the refresh compare-and-swap (`RotateRefreshInput.idleCutoff`). */
export function idleCases({ store }: StoreCaseContext): void {
  it('idle: lastActivityAt at or before the cutoff refuses the swap and revokes the session at now', async () => {
    const session = await created(store());
    const now = at(session.createdAt, 30 * MINUTE);
    // The cutoff equal to the last activity (the creation) is idle: "at or before".
    expect(await store().rotateRefresh(rotation(session, now, session.createdAt))).toEqual({ status: 'idle' });
    const after = await mustFind(store(), session.id);
    expect(after.expiredAt).toEqual(now);
    expect(after.refreshJti).toBe(session.refreshJti);
    expect(await store().listActiveSessions(session.userId, now)).toEqual([]);
    // Revoked for good: the next call is `expired`, even without a cutoff.
    expect(await store().rotateRefresh(rotation(session, at(now, SECOND), undefined))).toEqual({ status: 'expired' });
  });

  it('consumed: activity after the cutoff passes, and the swap records new activity', async () => {
    const session = await created(store());
    const now = at(session.createdAt, 30 * MINUTE);
    const input = rotation(session, now, at(session.createdAt, -1));
    const outcome = await store().rotateRefresh(input);
    expect(outcome.status).toBe('consumed');
    // The rotation is activity: a cutoff between the creation and it lets the next swap through.
    const next = rotation(session, at(now, MINUTE), at(now, -1), input.nextJti);
    expect((await store().rotateRefresh(next)).status).toBe('consumed');
    expect((await mustFind(store(), session.id)).lastActivityAt).toEqual(at(now, MINUTE));
  });

  it('a touch is activity: the cutoff is compared with the touched lastActivityAt', async () => {
    const session = await created(store());
    const touchedAt = at(session.createdAt, 20 * MINUTE);
    await store().touchSession(session.id, touchedAt);
    const now = at(session.createdAt, 30 * MINUTE);
    expect((await store().rotateRefresh(rotation(session, now, at(touchedAt, -1)))).status).toBe('consumed');
  });

  it('idle wins over a stale jti: the session is revoked as idle, not reported as reuse', async () => {
    const session = await created(store());
    const now = at(session.createdAt, 30 * MINUTE);
    expect(await store().rotateRefresh(rotation(session, now, at(now, -MINUTE), randomHex()))).toEqual({ status: 'idle' });
    expect((await mustFind(store(), session.id)).expiredAt).toEqual(now);
  });

  it('an idle session under concurrent refreshes is revoked once: one idle, the rest expired', async () => {
    const session = await created(store());
    const now = at(session.createdAt, 30 * MINUTE);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => store().rotateRefresh(rotation(session, now, at(now, -MINUTE)))));
    const statuses = outcomes.map((outcome) => outcome.status).sort();
    expect(statuses.filter((status) => status === 'idle')).toHaveLength(1);
    expect(statuses.filter((status) => status !== 'idle').every((status) => status === 'expired')).toBe(true);
  });
}
