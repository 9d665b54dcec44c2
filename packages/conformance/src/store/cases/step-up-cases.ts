import type { SessionStore } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { HOUR, MINUTE, at, expectedRecord, newSessionFixture, newUserId, randomHex } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

async function created(store: SessionStore, expiresInMs = 14 * 24 * HOUR) {
  const session = newSessionFixture();
  const stored = { ...session, expiresAt: at(session.createdAt, expiresInMs) };
  await store.createSession({ session: stored, maxActiveSessions: 10 });
  return stored;
}

function stepUp(store: SessionStore, input: { sessionId: string; userId: string; at: Date; amr: string[]; acr: string | null }) {
  return store.recordStepUp!({ sessionId: input.sessionId, userId: input.userId, authTime: input.at, amr: input.amr, acr: input.acr, now: input.at });
}

/** `recordStepUp`: authTime, amr and acr of one active session of its owner, together. */
export function stepUpCases({ store }: StoreCaseContext): void {
  it('a new session keeps the authTime, amr and acr it was created with', async () => {
    const session = newSessionFixture({ amr: ['hwk', 'user'], acr: 'urn:example:aal3' });
    await store().createSession({ session, maxActiveSessions: 10 });
    expect(await mustFind(store(), session.id)).toEqual(expectedRecord(session));
    expect(await store().listActiveSessions(session.userId, at(session.createdAt, 1))).toEqual([expectedRecord(session)]);
  });

  it('raises authTime and replaces amr and acr, changing nothing else', async () => {
    const session = await created(store());
    const later = at(session.createdAt, 30 * MINUTE);
    expect(await stepUp(store(), { sessionId: session.id, userId: session.userId, at: later, amr: ['otp'], acr: 'urn:example:mfa' })).toBe(true);
    const expected = { ...expectedRecord(session), authTime: later, amr: ['otp'], acr: 'urn:example:mfa' };
    expect(await mustFind(store(), session.id)).toEqual(expected);
    // A second step-up replaces them again (acr back to none).
    const again = at(later, MINUTE);
    expect(await stepUp(store(), { sessionId: session.id, userId: session.userId, at: again, amr: ['pwd'], acr: null })).toBe(true);
    expect(await mustFind(store(), session.id)).toEqual({ ...expected, authTime: again, amr: ['pwd'], acr: null });
    // The very same values again (engines that count only changed rows) still answer true.
    expect(await stepUp(store(), { sessionId: session.id, userId: session.userId, at: again, amr: ['pwd'], acr: null })).toBe(true);
  });

  it('the longest facts the core accepts round-trip exactly: 8 methods of 32 characters and an acr of 255', async () => {
    const session = await created(store());
    const later = at(session.createdAt, MINUTE);
    const amr = Array.from({ length: 8 }, (_, index) => `m${index}:`.padEnd(32, 'x'));
    const acr = `urn:${'a'.repeat(251)}`;
    expect(await stepUp(store(), { sessionId: session.id, userId: session.userId, at: later, amr, acr })).toBe(true);
    expect(await mustFind(store(), session.id)).toMatchObject({ authTime: later, amr, acr });
  });

  it('a refresh rotation keeps authTime, amr and acr', async () => {
    const session = await created(store());
    const later = at(session.createdAt, MINUTE);
    expect(await stepUp(store(), { sessionId: session.id, userId: session.userId, at: later, amr: ['otp'], acr: 'urn:example:mfa' })).toBe(true);
    const outcome = await store().rotateRefresh({
      sessionId: session.id,
      userId: session.userId,
      presentedJti: session.refreshJti,
      nextJti: randomHex(),
      securityStamp: session.securityStamp,
      now: at(later, HOUR),
    });
    expect(outcome.status).toBe('consumed');
    const after = outcome.status === 'consumed' ? outcome.session : null;
    expect({ authTime: after?.authTime, amr: after?.amr, acr: after?.acr }).toEqual({ authTime: later, amr: ['otp'], acr: 'urn:example:mfa' });
    expect(await mustFind(store(), session.id)).toMatchObject({ authTime: later, amr: ['otp'], acr: 'urn:example:mfa' });
  });

  it("false and no change: another user's, a revoked, an ended and an unknown session", async () => {
    const session = await created(store());
    const now = at(session.createdAt, MINUTE);
    expect(await stepUp(store(), { sessionId: session.id, userId: newUserId(), at: now, amr: ['otp'], acr: 'x' })).toBe(false);
    expect(await stepUp(store(), { sessionId: randomHex(), userId: session.userId, at: now, amr: ['otp'], acr: 'x' })).toBe(false);
    expect(await mustFind(store(), session.id)).toEqual(expectedRecord(session));

    const revoked = await created(store());
    expect(await store().expireSession(revoked.id, revoked.userId, now)).toBe(true);
    expect(await stepUp(store(), { sessionId: revoked.id, userId: revoked.userId, at: at(now, 1), amr: ['otp'], acr: null })).toBe(false);
    const revokedRecord = await mustFind(store(), revoked.id);
    expect({ authTime: revokedRecord.authTime, amr: revokedRecord.amr, expiredAt: revokedRecord.expiredAt }).toEqual({
      authTime: revoked.createdAt,
      amr: ['pwd'],
      expiredAt: now,
    });

    const ending = await created(store(), HOUR);
    expect(await stepUp(store(), { sessionId: ending.id, userId: ending.userId, at: at(ending.createdAt, HOUR), amr: ['otp'], acr: null })).toBe(
      false,
    );
    expect((await mustFind(store(), ending.id)).authTime).toEqual(ending.createdAt);
  });

  it('concurrent step-ups leave one whole write: authTime, amr and acr of the same call', async () => {
    const session = await created(store());
    const calls = Array.from({ length: 10 }, (_, index) => ({
      at: at(session.createdAt, (index + 1) * MINUTE),
      amr: [`m${index}`],
      acr: `urn:example:c${index}`,
    }));
    const results = await Promise.all(calls.map((call) => stepUp(store(), { sessionId: session.id, userId: session.userId, ...call })));
    expect(results.every(Boolean)).toBe(true);
    const after = await mustFind(store(), session.id);
    const winner = calls.find((call) => call.acr === after.acr);
    expect(winner, `acr ${after.acr} is one of the calls'`).toBeDefined();
    expect({ authTime: after.authTime, amr: after.amr }).toEqual({ authTime: winner?.at, amr: winner?.amr });
  });
}
