import { expect, it } from 'vitest';
import { HOUR, at, expectedRecord, newSessionFixture, randomHex } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

// An RFC 7638 SHA-256 thumbprint is 43 base64url characters.
const thumbprint = () => Buffer.from(randomHex(), 'hex').toString('base64url').padEnd(43, 'A').slice(0, 43);

/** The DPoP binding (JWT_DPOP): `dpopJkt` is kept exactly, through every read and a rotation; an unbound session has none. */
export function dpopCases({ store }: StoreCaseContext): void {
  it('a bound session keeps its dpopJkt in every read and through a refresh rotation', async () => {
    const dpopJkt = thumbprint();
    const session = newSessionFixture({ dpopJkt, expiresAt: at(newSessionFixture().createdAt, 14 * 24 * HOUR) });
    await store().createSession({ session, maxActiveSessions: 10 });
    expect(await mustFind(store(), session.id)).toEqual(expectedRecord(session));
    expect((await mustFind(store(), session.id)).dpopJkt).toBe(dpopJkt);
    expect((await store().listActiveSessions(session.userId, at(session.createdAt, 1)))[0]?.dpopJkt).toBe(dpopJkt);
    const outcome = await store().rotateRefresh({
      sessionId: session.id,
      userId: session.userId,
      presentedJti: session.refreshJti,
      nextJti: randomHex(),
      securityStamp: session.securityStamp,
      now: at(session.createdAt, HOUR),
    });
    expect(outcome.status).toBe('consumed');
    expect(outcome.status === 'consumed' ? outcome.session.dpopJkt : undefined).toBe(dpopJkt);
    expect((await mustFind(store(), session.id)).dpopJkt).toBe(dpopJkt);
  });

  it('an unbound session reads back without dpopJkt (null or absent)', async () => {
    const session = newSessionFixture();
    await store().createSession({ session, maxActiveSessions: 10 });
    expect((await mustFind(store(), session.id)).dpopJkt ?? null).toBeNull();
  });
}
