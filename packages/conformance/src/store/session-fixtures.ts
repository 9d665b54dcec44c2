import type { Location } from '@sessauth/core';
import type { NewSession, RotateRefreshInput, SessionRecord } from '@sessauth/core/store';

/**
 * Fixtures for the store suite. Ids are lowercase hex so that every collation
 * (binary, `C`, ICU, MySQL `*_ci`) orders them alike: the suite can then assert
 * the "ties broken by id" rule without depending on a database's locale.
 */
export function randomHex(bytes = 16): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  return Array.from(buffer, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * "Now" for a test: the real clock (whole milliseconds, all `DATETIME(3)` keeps).
 * Real time, not a fixed date, because a store may hand `expiresAt` to its server
 * as a TTL (Redis): a record dated in the past could vanish at once. Cases move
 * time forward by passing a later `now` (only the purge cases date rows in the past).
 */
export function testNow(): Date {
  return new Date();
}

export function at(base: Date, offsetMs: number): Date {
  return new Date(base.getTime() + offsetMs);
}

export const FULL_LOCATION: Location = {
  city: 'São Paulo',
  region: 'São Paulo',
  country: 'Brazil',
  country_code: 'BR',
  latitude: -23.55052,
  longitude: -46.633308,
};

/**
 * A session of a fresh random user, created now and ending in 14 days. Pass
 * overrides for anything else; `createdAt` defaults to `testNow()`.
 */
export function newSessionFixture(overrides: Partial<NewSession> = {}): NewSession {
  const createdAt = overrides.createdAt ?? testNow();
  return {
    // As a password login hands them over (RFC 9470's auth_time = the login).
    authTime: createdAt,
    amr: ['pwd'],
    acr: null,
    id: randomHex(),
    userId: `user-${randomHex(8)}`,
    refreshJti: randomHex(),
    securityStamp: randomHex(32),
    createdAt,
    expiresAt: at(createdAt, 14 * DAY),
    ipAddress: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    browser: 'Firefox 128 on Linux',
    location: { city: 'Berlin', country: 'Germany', country_code: 'DE' },
    ...overrides,
  };
}

/**
 * The honest next refresh of `session`: its current refresh token presented, a fresh one to
 * swap in, its own security stamp, at `now`. Spread it to change one field (a stale stamp, a
 * replayed `jti`, another user).
 */
export function nextRotation(session: Pick<NewSession, 'id' | 'userId' | 'refreshJti' | 'securityStamp'>, now = new Date()): RotateRefreshInput {
  return {
    sessionId: session.id,
    userId: session.userId,
    presentedJti: session.refreshJti,
    nextJti: randomHex(),
    securityStamp: session.securityStamp,
    now,
  };
}

/**
 * The record `createSession` must return for `session` when nothing evicts it: a
 * deep copy, so that a store which leaks its own objects cannot change it.
 */
export function expectedRecord(session: NewSession): SessionRecord {
  const { authTime, amr, acr, ...rest } = session;
  return {
    ...rest,
    ...(keepsAuthentication ? { authTime: new Date((authTime ?? session.createdAt).getTime()), amr: [...(amr ?? [])], acr: acr ?? null } : {}),
    createdAt: new Date(session.createdAt.getTime()),
    expiresAt: new Date(session.expiresAt.getTime()),
    lastActivityAt: new Date(session.createdAt.getTime()),
    expiredAt: null,
    location: session.location === null ? null : { ...session.location },
    name: null,
  };
}

/**
 * Whether the store under test keeps `authTime`, `amr` and `acr` (it has `recordStepUp`, the
 * step-up capability): set by `describeStoreConformance` for each suite. An older store without
 * the capability is not asked to return them, so it still passes every other case.
 */
let keepsAuthentication = true;

export function expectAuthenticationFields(on: boolean): void {
  keepsAuthentication = on;
}

/** A fresh user id that no other test uses. */
export function newUserId(): string {
  return `user-${randomHex(8)}`;
}
