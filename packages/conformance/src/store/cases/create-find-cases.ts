import type { SessionRecord } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { FULL_LOCATION, expectedRecord, newSessionFixture, randomHex } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

export function createCases({ store }: StoreCaseContext): void {
  it('returns the new record: lastActivityAt = createdAt, expiredAt null, every field as given', async () => {
    const session = newSessionFixture();
    const created = await store().createSession({ session, maxActiveSessions: 10 });
    expect(created).toEqual(expectedRecord(session));
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.expiresAt).toBeInstanceOf(Date);
    expect(created.lastActivityAt).toBeInstanceOf(Date);
  });

  it('round-trips every field through findSession', async () => {
    const session = newSessionFixture({ location: FULL_LOCATION });
    await store().createSession({ session, maxActiveSessions: 10 });
    const found = await mustFind(store(), session.id);
    expect(found).toEqual(expectedRecord(session));
    expect(found.createdAt).toBeInstanceOf(Date);
    expect(found.expiresAt).toBeInstanceOf(Date);
    expect(found.lastActivityAt).toBeInstanceOf(Date);
    // Coordinates come back exactly: a single-precision column would round them.
    expect(found.location?.latitude).toBe(FULL_LOCATION.latitude);
    expect(found.location?.longitude).toBe(FULL_LOCATION.longitude);
  });

  it('round-trips the all-null variant (no IP, User-Agent, browser or location)', async () => {
    const session = newSessionFixture({ ipAddress: null, userAgent: null, browser: null, location: null });
    const created = await store().createSession({ session, maxActiveSessions: 10 });
    expect(created).toEqual(expectedRecord(session));
    expect(await mustFind(store(), session.id)).toEqual(expectedRecord(session));
  });

  it('round-trips a partial Location and an IPv6 address', async () => {
    const session = newSessionFixture({
      ipAddress: '2001:db8:85a3::8a2e:370:7334',
      location: { country_code: 'NZ' },
    });
    await store().createSession({ session, maxActiveSessions: 10 });
    const found = await mustFind(store(), session.id);
    expect(found.ipAddress).toBe('2001:db8:85a3::8a2e:370:7334');
    expect(found.location).toEqual({ country_code: 'NZ' });
  });

  it('keeps millisecond precision of every date', async () => {
    const createdAt = new Date(Date.now() - (Date.now() % 1000) + 123);
    const session = newSessionFixture({ createdAt, expiresAt: new Date(createdAt.getTime() + 86_400_987) });
    await store().createSession({ session, maxActiveSessions: 10 });
    const found = await mustFind(store(), session.id);
    expect(found.createdAt.getTime()).toBe(createdAt.getTime());
    expect(found.lastActivityAt.getTime()).toBe(createdAt.getTime());
    expect(found.expiresAt.getTime()).toBe(createdAt.getTime() + 86_400_987);
  });

  it("never touches another user's sessions (the cap is per user)", async () => {
    const other = newSessionFixture();
    await store().createSession({ session: other, maxActiveSessions: 1 });
    const mine = newSessionFixture({ createdAt: new Date(other.createdAt.getTime() + 1000) });
    await store().createSession({ session: mine, maxActiveSessions: 1 });
    expect(await mustFind(store(), other.id)).toEqual(expectedRecord(other));
  });

  it('is not affected by later changes to the input or the returned record', async () => {
    const location = { city: 'Lyon', country_code: 'FR' };
    const session = { ...newSessionFixture(), location };
    const expected = expectedRecord(session);
    const created = await store().createSession({ session, maxActiveSessions: 10 });
    location.city = 'changed';
    session.createdAt.setTime(1);
    mutate(created);
    expect(await mustFind(store(), session.id)).toEqual(expected);
  });
}

export function findCases({ store }: StoreCaseContext): void {
  it('returns null for an unknown id', async () => {
    expect(await store().findSession(randomHex())).toBeNull();
  });

  it('returns revoked records too', async () => {
    const session = newSessionFixture();
    await store().createSession({ session, maxActiveSessions: 10 });
    const revokedAt = new Date(session.createdAt.getTime() + 1000);
    expect(await store().expireSession(session.id, session.userId, revokedAt)).toBe(true);
    expect(await mustFind(store(), session.id)).toEqual({ ...expectedRecord(session), expiredAt: revokedAt });
  });

  it('hands out copies: changing a found record changes nothing stored', async () => {
    const session = newSessionFixture({ location: { ...FULL_LOCATION } });
    const expected = expectedRecord(session);
    await store().createSession({ session, maxActiveSessions: 10 });
    mutate(await mustFind(store(), session.id));
    expect(await mustFind(store(), session.id)).toEqual(expected);
  });
}

/** Scribbles over a record the way a careless caller might (records are readonly by type only). */
function mutate(record: SessionRecord): void {
  const writable = record as { -readonly [K in keyof SessionRecord]: SessionRecord[K] };
  writable.createdAt.setTime(0);
  writable.lastActivityAt.setTime(0);
  writable.refreshJti = 'changed';
  writable.expiredAt = new Date(0);
  if (writable.location) writable.location.city = 'changed';
}
