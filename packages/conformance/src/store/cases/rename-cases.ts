import type { SessionStore } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { HOUR, MINUTE, at, expectedRecord, newSessionFixture, newUserId, randomHex } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

async function created(store: SessionStore, expiresInMs = 14 * 24 * HOUR) {
  const session = newSessionFixture();
  await store.createSession({ session: { ...session, expiresAt: at(session.createdAt, expiresInMs) }, maxActiveSessions: 10 });
  return { ...session, expiresAt: at(session.createdAt, expiresInMs) };
}

/** `renameSession`: the device name of one active session of its owner. */
export function renameCases({ store }: StoreCaseContext): void {
  it('a new session has name null; renaming sets it, the list and findSession show it, nothing else changes', async () => {
    const session = await created(store());
    expect((await mustFind(store(), session.id)).name).toBeNull();
    const now = at(session.createdAt, MINUTE);
    expect(await store().renameSession(session.id, session.userId, 'Work laptop', now)).toBe(true);
    const named = { ...expectedRecord(session), name: 'Work laptop' };
    expect(await mustFind(store(), session.id)).toEqual(named);
    expect(await store().listActiveSessions(session.userId, now)).toEqual([named]);
    // Renamed again, also to the very same name (engines that count only changed rows too).
    expect(await store().renameSession(session.id, session.userId, 'Phone', now)).toBe(true);
    expect(await store().renameSession(session.id, session.userId, 'Phone', now)).toBe(true);
    expect((await mustFind(store(), session.id)).name).toBe('Phone');
  });

  it('keeps the exact text: 64 characters of emoji, accents and CJK round-trip', async () => {
    const session = await created(store());
    const name = `${'😀'.repeat(20)}${'é'.repeat(20)}${'漢'.repeat(23)}Z`;
    expect([...name]).toHaveLength(64);
    expect(await store().renameSession(session.id, session.userId, name, at(session.createdAt, MINUTE))).toBe(true);
    expect((await mustFind(store(), session.id)).name).toBe(name);
  });

  it("false and no change: another user's, a revoked, an ended and an unknown session", async () => {
    const session = await created(store());
    const now = at(session.createdAt, MINUTE);
    expect(await store().renameSession(session.id, newUserId(), 'Not yours', now)).toBe(false);
    expect(await store().renameSession(randomHex(), session.userId, 'Nobody', now)).toBe(false);
    expect((await mustFind(store(), session.id)).name).toBeNull();

    const revoked = await created(store());
    expect(await store().expireSession(revoked.id, revoked.userId, now)).toBe(true);
    expect(await store().renameSession(revoked.id, revoked.userId, 'Gone', at(now, 1))).toBe(false);
    expect((await mustFind(store(), revoked.id)).name).toBeNull();

    const ending = await created(store(), HOUR);
    // At its expiresAt it is over (as everywhere: expiresAt > now is active).
    expect(await store().renameSession(ending.id, ending.userId, 'Late', at(ending.createdAt, HOUR))).toBe(false);
    expect((await mustFind(store(), ending.id)).name).toBeNull();
  });

  it('the name survives a refresh rotation and is kept after revocation', async () => {
    const session = await created(store());
    const now = at(session.createdAt, MINUTE);
    expect(await store().renameSession(session.id, session.userId, 'Tablet', now)).toBe(true);
    const outcome = await store().rotateRefresh({
      sessionId: session.id,
      userId: session.userId,
      presentedJti: session.refreshJti,
      nextJti: randomHex(),
      securityStamp: session.securityStamp,
      now: at(now, MINUTE),
    });
    expect(outcome.status === 'consumed' ? outcome.session.name : outcome.status).toBe('Tablet');
    expect(await store().expireSession(session.id, session.userId, at(now, 2 * MINUTE))).toBe(true);
    expect((await mustFind(store(), session.id)).name).toBe('Tablet');
  });
}
