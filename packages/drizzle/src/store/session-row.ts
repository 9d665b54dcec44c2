import { parseStoredAmr, parseStoredLocation, type NewSession, type SessionRecord } from '@sessauth/core/store';

/**
 * A session row under the tables' JS keys. Instants are epoch milliseconds; a driver may
 * still hand a BIGINT back as a string or a bigint (a SQLite database opened with safe
 * integers), so reading converts with `Number`.
 */
export interface SessionRow {
  id: string;
  userId: string;
  refreshJti: string;
  securityStamp: string;
  createdAt: number;
  lastActivityAt: number;
  expiresAt: number;
  expiredAt: number | null;
  ipAddress: string | null;
  userAgent: string | null;
  browser: string | null;
  location: string | null;
  name: string | null;
  /** Null on rows from before step 0004: the session's `createdAt`. */
  authTime: number | null;
  /** A JSON array of method names; null on older rows: []. */
  amr: string | null;
  acr: string | null;
  /** Null on rows from before step 0005 and on every unbound session. */
  dpopJkt: string | null;
  /** Null on rows from before step 0008 and on every session no browser bound (DBSC). */
  deviceBoundKey: string | null;
}

/** The row a login inserts; a revoked newcomer (out-of-order logins past the cap) gets `expiredAt`. */
export function toInsertRow(session: NewSession): SessionRow {
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
    deviceBoundKey: session.deviceBoundKey ?? null,
  };
}

export function toRecord(row: SessionRow): SessionRecord {
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

export function isActiveRow(row: SessionRow, nowMs: number): boolean {
  return row.expiredAt === null && Number(row.expiresAt) > nowMs;
}
