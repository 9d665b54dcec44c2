import type { NewSession, SessionRecord } from './store-port.js';
import { parseStoredAmr, parseStoredLocation } from './stored-columns.js';

/**
 * A session row under the field names an ORM model gives the reference layout's columns
 * (`userId` for `user_id`...: Drizzle's tables, Prisma's model). Instants are epoch milliseconds;
 * a driver may hand a BIGINT back as a number, a string or a bigint, so reading converts with `Number`.
 */
export interface SessionModelRow<Instant = number | string | bigint> {
  id: string;
  userId: string;
  refreshJti: string;
  securityStamp: string;
  createdAt: Instant;
  lastActivityAt: Instant;
  expiresAt: Instant;
  expiredAt: Instant | null;
  ipAddress: string | null;
  userAgent: string | null;
  browser: string | null;
  location: string | null;
  name: string | null;
  /** Null on rows from before step 0004: the session's `createdAt`. */
  authTime: Instant | null;
  /** A JSON array of method names; null on older rows: []. */
  amr: string | null;
  acr: string | null;
  /** Null on rows from before step 0005 and on every unbound session. */
  dpopJkt: string | null;
  /** Null on rows from before step 0008 and on every session no browser bound (DBSC). */
  deviceBoundKey: string | null;
}

/** The columns later steps added: a model generated before them (a Prisma client) may lack them. */
type LaterColumns = 'authTime' | 'amr' | 'acr' | 'dpopJkt' | 'deviceBoundKey';

/** A row as read back, with or without the later columns. */
type StoredSessionModelRow = Omit<SessionModelRow, LaterColumns> & Partial<Pick<SessionModelRow, LaterColumns>>;

/** The row a login inserts; a revoked newcomer (out-of-order logins past the cap) gets `expiredAt`. */
export function toSessionModelRow(session: NewSession): SessionModelRow<number> {
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

/** The port's record for a stored row; every instant is exact below 2^53 ms. */
export function sessionRecordFromModelRow(row: StoredSessionModelRow): SessionRecord {
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

/** Not revoked and not past its absolute expiry at `nowMs`. */
export function isActiveModelRow(row: Pick<SessionModelRow, 'expiredAt' | 'expiresAt'>, nowMs: number): boolean {
  return row.expiredAt === null && Number(row.expiresAt) > nowMs;
}
