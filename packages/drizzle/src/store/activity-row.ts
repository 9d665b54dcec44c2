import type { ActivityEntry, ActivityKind } from '@sessauth/core/store';
import { parseStoredLocation } from '@sessauth/core/store';

/** An activity row as the stores write and read it (timestamps as epoch ms). */
export interface ActivityRow {
  id: string;
  sessionId: string;
  userId: string;
  kind: string;
  at: number;
  expiresAt: number;
  ipAddress: string | null;
  browser: string | null;
  location: string | null;
  detail: string | null;
}

export function toActivityRow(entry: ActivityEntry): ActivityRow {
  return {
    id: entry.id,
    sessionId: entry.sessionId,
    userId: entry.userId,
    kind: entry.kind,
    at: entry.at.getTime(),
    expiresAt: entry.expiresAt.getTime(),
    ipAddress: entry.ipAddress,
    browser: entry.browser,
    location: entry.location === null ? null : JSON.stringify(entry.location),
    detail: entry.detail,
  };
}

export function toActivityEntry(row: ActivityRow): ActivityEntry {
  return {
    id: row.id,
    sessionId: row.sessionId,
    userId: row.userId,
    kind: row.kind as ActivityKind,
    at: new Date(Number(row.at)),
    expiresAt: new Date(Number(row.expiresAt)),
    ipAddress: row.ipAddress,
    browser: row.browser,
    location: parseStoredLocation(row.location),
    detail: row.detail,
  };
}
