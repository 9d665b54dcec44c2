import { parseStoredAmr, parseStoredLocation, type NewSession, type SessionRecord } from '@sessauth/core/store';
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
    dpopJkt: session.dpopJkt ?? null,
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
    location: parseStoredLocation(row.location),
    name: row.name ?? null,
    authTime: new Date(Number(row.authTime ?? row.createdAt)),
    amr: parseStoredAmr(row.amr),
    acr: row.acr ?? null,
    // Named only on a bound session (as every store reads it).
    ...(row.dpopJkt === null || row.dpopJkt === undefined ? {} : { dpopJkt: row.dpopJkt }),
    ...(row.deviceBoundKey === null || row.deviceBoundKey === undefined ? {} : { deviceBoundKey: row.deviceBoundKey }),
  };
}

export function isActiveRow(row: SessionModel, nowMs: number): boolean {
  return row.expiredAt === null && Number(row.expiresAt) > nowMs;
}
