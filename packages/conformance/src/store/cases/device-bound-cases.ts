import type { SessionStore } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { HOUR, at, newSessionFixture, randomHex } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

const jwk = () => JSON.stringify({ kty: 'EC', crv: 'P-256', x: randomHex(), y: randomHex() });

async function created(store: SessionStore) {
  const session = newSessionFixture();
  const stored = { ...session, expiresAt: at(session.createdAt, 14 * 24 * HOUR) };
  await store.createSession({ session: stored, maxActiveSessions: 10 });
  return stored;
}

/** `bindDeviceKey` (JWT_DEVICE_BOUND_COOKIES): once, on an active session of its owner, kept through every read and a rotation. */
export function deviceBoundCases({ store }: StoreCaseContext): void {
  it('binds an unbound active session once; the key reads back exactly, through a rotation; a second bind is refused', async () => {
    const session = await created(store());
    expect((await mustFind(store(), session.id)).deviceBoundKey ?? null).toBeNull();
    const key = jwk();
    const now = at(session.createdAt, 1000);
    expect(await store().bindDeviceKey!({ sessionId: session.id, userId: session.userId, publicKey: key, now })).toBe(true);
    expect((await mustFind(store(), session.id)).deviceBoundKey).toBe(key);
    expect(await store().bindDeviceKey!({ sessionId: session.id, userId: session.userId, publicKey: jwk(), now })).toBe(false);
    expect(await store().bindDeviceKey!({ sessionId: session.id, userId: session.userId, publicKey: key, now })).toBe(false);
    const outcome = await store().rotateRefresh({
      sessionId: session.id,
      userId: session.userId,
      presentedJti: session.refreshJti,
      nextJti: randomHex(),
      securityStamp: session.securityStamp,
      now: at(session.createdAt, HOUR),
    });
    expect(outcome.status === 'consumed' ? outcome.session.deviceBoundKey : outcome.status).toBe(key);
    expect((await mustFind(store(), session.id)).deviceBoundKey).toBe(key);
  });

  it("refuses another user's, a revoked, an ended and an unknown session, changing nothing", async () => {
    const mine = await created(store());
    const now = at(mine.createdAt, 1000);
    expect(await store().bindDeviceKey!({ sessionId: mine.id, userId: `${mine.userId}-other`, publicKey: jwk(), now })).toBe(false);
    expect((await mustFind(store(), mine.id)).deviceBoundKey ?? null).toBeNull();
    const revoked = await created(store());
    expect(await store().expireSession(revoked.id, revoked.userId, now)).toBe(true);
    expect(await store().bindDeviceKey!({ sessionId: revoked.id, userId: revoked.userId, publicKey: jwk(), now: at(now, 1) })).toBe(false);
    const ended = await created(store());
    expect(await store().bindDeviceKey!({ sessionId: ended.id, userId: ended.userId, publicKey: jwk(), now: at(ended.expiresAt, 1) })).toBe(false);
    expect(await store().bindDeviceKey!({ sessionId: randomHex(), userId: mine.userId, publicKey: jwk(), now })).toBe(false);
  });

  it('two racing binds of one session: exactly one wins', async () => {
    const session = await created(store());
    const now = at(session.createdAt, 1000);
    const keys = Array.from({ length: 8 }, jwk);
    const results = await Promise.all(
      keys.map((publicKey) => store().bindDeviceKey!({ sessionId: session.id, userId: session.userId, publicKey, now })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await mustFind(store(), session.id)).deviceBoundKey).toBe(keys[results.indexOf(true)]);
  });
}
