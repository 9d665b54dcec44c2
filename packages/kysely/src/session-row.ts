import type { SessionRecord } from '@sessauth/core';
import { parseStoredAmr, parseStoredLocation, type NewSession } from '@sessauth/core/store';

/**
 * Named, not `*`: a prepared statement's result shape must not change when a
 * later migration adds a column (PostgreSQL: "cached plan must not change result type").
 */
export const SESSION_COLUMNS = [
  'id',
  'user_id',
  'refresh_jti',
  'security_stamp',
  'created_at',
  'last_activity_at',
  'expires_at',
  'expired_at',
  'ip_address',
  'user_agent',
  'browser',
  'location',
  'name',
  'auth_time',
  'amr',
  'acr',
  'dpop_jkt',
  'device_bound_key',
] as const;

/** A session row as the drivers return it (BIGINT may come back as string or bigint). */
export interface SessionRow {
  id: string;
  user_id: string;
  refresh_jti: string;
  security_stamp: string;
  created_at: number | string | bigint;
  last_activity_at: number | string | bigint;
  expires_at: number | string | bigint;
  expired_at: number | string | bigint | null;
  ip_address: string | null;
  user_agent: string | null;
  browser: string | null;
  location: string | null;
  /** Absent from rows built in memory (a new session has no name). */
  name?: string | null;
  /** Null on rows from before migration 0004: the session's `created_at`. */
  auth_time?: number | string | bigint | null;
  /** A JSON array of method names; null on older rows: []. */
  amr?: string | null;
  acr?: string | null;
  /** Null on rows from before migration 0005 and on every unbound session. */
  dpop_jkt?: string | null;
  /** Null on rows from before migration 0008 and on every session no browser bound (DBSC). */
  device_bound_key?: string | null;
}

/** The guard's read where the dialect packs the row: `SESSION_COLUMNS` as one JSON array, in that order. */
export interface PackedSessionRow {
  packed: string;
}

/** A packed row back to a session row, column by column in the order they were packed (`SESSION_COLUMNS`). */
export function unpackSessionRow(row: PackedSessionRow): SessionRow {
  const values = JSON.parse(row.packed) as unknown[];
  const unpacked: Record<string, unknown> = {};
  for (let index = 0; index < SESSION_COLUMNS.length; index += 1) unpacked[SESSION_COLUMNS[index]!] = values[index] ?? null;
  return unpacked as unknown as SessionRow;
}

/** The row written for a new session; timestamps become epoch milliseconds. */
export interface SessionInsert {
  id: string;
  user_id: string;
  refresh_jti: string;
  security_stamp: string;
  created_at: number;
  last_activity_at: number;
  expires_at: number;
  expired_at: number | null;
  ip_address: string | null;
  user_agent: string | null;
  browser: string | null;
  location: string | null;
  auth_time: number;
  amr: string;
  acr: string | null;
  dpop_jkt: string | null;
}

export function toInsertRow(session: NewSession): SessionInsert {
  const createdAt = session.createdAt.getTime();
  return {
    id: session.id,
    user_id: session.userId,
    refresh_jti: session.refreshJti,
    security_stamp: session.securityStamp,
    created_at: createdAt,
    last_activity_at: createdAt,
    expires_at: session.expiresAt.getTime(),
    expired_at: null,
    ip_address: session.ipAddress,
    user_agent: session.userAgent,
    browser: session.browser,
    location: session.location === null ? null : JSON.stringify(session.location),
    auth_time: (session.authTime ?? session.createdAt).getTime(),
    amr: JSON.stringify(session.amr ?? []),
    acr: session.acr ?? null,
    dpop_jkt: session.dpopJkt ?? null,
  };
}

export function toRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    refreshJti: row.refresh_jti,
    securityStamp: row.security_stamp,
    createdAt: new Date(Number(row.created_at)),
    lastActivityAt: new Date(Number(row.last_activity_at)),
    expiresAt: new Date(Number(row.expires_at)),
    expiredAt: row.expired_at === null ? null : new Date(Number(row.expired_at)),
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    browser: row.browser,
    location: parseStoredLocation(row.location),
    name: row.name ?? null,
    authTime: new Date(Number(row.auth_time ?? row.created_at)),
    amr: parseStoredAmr(row.amr),
    acr: row.acr ?? null,
    // Named only on a bound session (as every store reads it).
    ...(row.dpop_jkt === null || row.dpop_jkt === undefined ? {} : { dpopJkt: row.dpop_jkt }),
    ...(row.device_bound_key === null || row.device_bound_key === undefined ? {} : { deviceBoundKey: row.device_bound_key }),
  };
}

export function isActiveRow(row: SessionRow, nowMs: number): boolean {
  return row.expired_at === null && Number(row.expires_at) > nowMs;
}
