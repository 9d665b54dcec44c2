import type { Location } from '@sessauth/core';
import type { NewSession, SessionRecord } from '@sessauth/core/store';
import type { SessionModel } from '../client/prisma-like.js';

/** The row a login inserts; a revoked newcomer (out-of-order logins past the cap) gets `expiredAt`. */
export function toInsertRow(session: NewSession): SessionModel {
  const createdAt = session.createdAt.getTime();
  return {
    id: session.id,
    userId: session.userId,
    refreshJti: session.refreshJti,
    securityStamp: session.securityStamp,
    createdAt,
    lastActivityAt: createdAt,
    expiresAt: session.expiresAt.getTime(),
    expiredAt: null,
    ipAddress: session.ipAddress,
    userAgent: session.userAgent,
    browser: session.browser,
    location: session.location === null ? null : JSON.stringify(session.location),
    name: null,
    authTime: (session.authTime ?? session.createdAt).getTime(),
    amr: JSON.stringify(session.amr ?? []),
    acr: session.acr ?? null,
  };
}

/** Prisma hands BIGINT back as bigint; every instant is exact below 2^53 ms. */
export function toRecord(row: SessionModel): SessionRecord {
  return {
    id: row.id,
    userId: row.userId,
    refreshJti: row.refreshJti,
    securityStamp: row.securityStamp,
    createdAt: new Date(Number(row.createdAt)),
    lastActivityAt: new Date(Number(row.lastActivityAt)),
    expiresAt: new Date(Number(row.expiresAt)),
    expiredAt: row.expiredAt === null ? null : new Date(Number(row.expiredAt)),
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    browser: row.browser,
    location: parseLocation(row.location),
    name: row.name ?? null,
    authTime: new Date(Number(row.authTime ?? row.createdAt)),
    amr: parseAmr(row.amr),
    acr: row.acr ?? null,
  };
}

/** The methods are policy data: an unreadable value reads as unknown ([]). */
function parseAmr(text: string | null | undefined): string[] {
  if (text === null || text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : [];
  } catch {
    return [];
  }
}

/** The location is display data: an unreadable value is dropped, not fatal. */
function parseLocation(text: string | null): Location | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Location) : null;
  } catch {
    return null;
  }
}

export function isActiveRow(row: SessionModel, nowMs: number): boolean {
  return row.expiredAt === null && Number(row.expiresAt) > nowMs;
}
