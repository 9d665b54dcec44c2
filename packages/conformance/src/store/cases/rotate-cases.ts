import type { NewSession, RotateRefreshInput, SessionRecord, SessionStore } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { HOUR, MINUTE, at, expectedRecord, newSessionFixture, newUserId, nextRotation, randomHex, testNow } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

/** A rotation of `session` by its owner with its current jti and stamp, at `now`. */
function rotation(session: NewSession, now: Date, overrides: Partial<RotateRefreshInput> = {}): RotateRefreshInput {
  return { ...nextRotation(session, now), ...overrides };
}

async function created(store: SessionStore, overrides: Partial<NewSession> = {}): Promise<NewSession> {
  const session = newSessionFixture(overrides);
  await store.createSession({ session, maxActiveSessions: 10 });
  return session;
}

export function rotateCases({ store }: StoreCaseContext): void {
  it('consumed: swaps the jti, sets lastActivityAt = now, and returns the record after the swap', async () => {
    const session = await created(store());
    const now = at(session.createdAt, 5 * MINUTE);
    const input = rotation(session, now);
    const outcome = await store().rotateRefresh(input);
    const after: SessionRecord = { ...expectedRecord(session), refreshJti: input.nextJti, lastActivityAt: now };
    expect(outcome).toEqual({ status: 'consumed', session: after });
    expect(await mustFind(store(), session.id)).toEqual(after);
  });

  it('consumed again with the new jti: rotations chain', async () => {
    const session = await created(store());
    const first = rotation(session, at(session.createdAt, MINUTE));
    expect((await store().rotateRefresh(first)).status).toBe('consumed');
    const second = rotation(session, at(session.createdAt, 2 * MINUTE), { presentedJti: first.nextJti });
    expect((await store().rotateRefresh(second)).status).toBe('consumed');
    expect((await mustFind(store(), session.id)).refreshJti).toBe(second.nextJti);
  });

  it('reused: the replaced jti presented again revokes the session at now', async () => {
    const session = await created(store());
    const first = rotation(session, at(session.createdAt, MINUTE));
    expect((await store().rotateRefresh(first)).status).toBe('consumed');
    const replayAt = at(session.createdAt, 2 * MINUTE);
    expect(await store().rotateRefresh(rotation(session, replayAt))).toEqual({ status: 'reused' });
    expect((await mustFind(store(), session.id)).expiredAt).toEqual(replayAt);
    // Once revoked, even the winner's replacement gets `expired`.
    const late = rotation(session, at(session.createdAt, 3 * MINUTE), { presentedJti: first.nextJti });
    expect(await store().rotateRefresh(late)).toEqual({ status: 'expired' });
  });

  it('reused: a jti the session never issued revokes it', async () => {
    const session = await created(store());
    const now = at(session.createdAt, MINUTE);
    expect(await store().rotateRefresh(rotation(session, now, { presentedJti: randomHex() }))).toEqual({ status: 'reused' });
    expect((await mustFind(store(), session.id)).expiredAt).toEqual(now);
  });

  it('missing: no session with that id', async () => {
    const session = newSessionFixture();
    expect(await store().rotateRefresh(rotation(session, testNow()))).toEqual({ status: 'missing' });
    expect(await store().findSession(session.id)).toBeNull();
  });

  it('wrong_user: changes nothing, even with a wrong jti and stamp, and the owner can still rotate', async () => {
    const session = await created(store());
    const now = at(session.createdAt, MINUTE);
    const intruder = { userId: newUserId(), presentedJti: randomHex(), securityStamp: randomHex(32) };
    expect(await store().rotateRefresh(rotation(session, now, intruder))).toEqual({ status: 'wrong_user' });
    expect(await store().rotateRefresh(rotation(session, now, { userId: newUserId() }))).toEqual({ status: 'wrong_user' });
    expect(await mustFind(store(), session.id)).toEqual(expectedRecord(session));
    expect((await store().rotateRefresh(rotation(session, now))).status).toBe('consumed');
  });

  it('wrong_user comes before expired: a revoked session of someone else', async () => {
    const session = await created(store());
    await store().expireSession(session.id, session.userId, at(session.createdAt, MINUTE));
    const before = await mustFind(store(), session.id);
    const now = at(session.createdAt, 2 * MINUTE);
    expect(await store().rotateRefresh(rotation(session, now, { userId: newUserId() }))).toEqual({ status: 'wrong_user' });
    expect(await mustFind(store(), session.id)).toEqual(before);
  });

  it('expired: a revoked session, whatever the jti and stamp, changes nothing', async () => {
    const session = await created(store());
    await store().expireSession(session.id, session.userId, at(session.createdAt, MINUTE));
    const before = await mustFind(store(), session.id);
    const now = at(session.createdAt, 2 * MINUTE);
    for (const overrides of [{}, { presentedJti: randomHex() }, { securityStamp: randomHex(32) }]) {
      expect(await store().rotateRefresh(rotation(session, now, overrides))).toEqual({ status: 'expired' });
    }
    expect(await mustFind(store(), session.id)).toEqual(before);
  });

  it('expired: at or past expiresAt, whatever the jti and stamp, changes nothing (no revocation)', async () => {
    const session = await created(store(), { expiresAt: at(testNow(), HOUR) });
    for (const now of [session.expiresAt, at(session.expiresAt, MINUTE)]) {
      for (const overrides of [{}, { presentedJti: randomHex() }, { securityStamp: randomHex(32) }]) {
        expect(await store().rotateRefresh(rotation(session, now, overrides))).toEqual({ status: 'expired' });
      }
    }
    expect(await mustFind(store(), session.id)).toEqual(expectedRecord(session));
  });

  it('security_changed: a different stamp revokes the session at now, even with a wrong jti', async () => {
    for (const presentedJti of [undefined, randomHex()]) {
      const session = await created(store());
      const now = at(session.createdAt, MINUTE);
      const input = rotation(session, now, { securityStamp: randomHex(32), ...(presentedJti ? { presentedJti } : {}) });
      expect(await store().rotateRefresh(input)).toEqual({ status: 'security_changed' });
      const after = await mustFind(store(), session.id);
      expect(after.expiredAt).toEqual(now);
      expect(after.refreshJti).toBe(session.refreshJti);
    }
  });
}
