import type { ActivityEntry, ActivityKind } from './activity-port.js';
import { parseStoredLocation } from './stored-columns.js';

/**
 * An activity row as a SQL store reads it back under the reference layout's column names (the
 * `sessauth_session_activity` table). The instants are epoch milliseconds, which a driver may
 * hand back as a number, a string (pg's BIGINT) or a bigint; the location is JSON text.
 */
export interface ActivityTableRow {
  readonly id: string;
  readonly session_id: string;
  readonly user_id: string;
  readonly kind: string;
  readonly at: number | string | bigint;
  readonly expires_at: number | string | bigint;
  readonly ip_address: string | null;
  readonly browser: string | null;
  readonly location: string | null;
  readonly detail: string | null;
}

/** The port's entry for a stored row; an unreadable location reads as none, as every store reads it. */
export function activityEntryFromRow(row: ActivityTableRow): ActivityEntry {
  return {
    id: row.id,
    sessionId: row.session_id,
    userId: row.user_id,
    kind: row.kind as ActivityKind,
    at: new Date(Number(row.at)),
    expiresAt: new Date(Number(row.expires_at)),
    ipAddress: row.ip_address,
    browser: row.browser,
    location: parseStoredLocation(row.location),
    detail: row.detail,
  };
}

/** Adds entries, in the order given, to their session's list: the map `listActivity` answers with. */
export function addToHistories(histories: Map<string, ActivityEntry[]>, entries: Iterable<ActivityEntry>): void {
  for (const entry of entries) {
    const list = histories.get(entry.sessionId);
    if (list === undefined) histories.set(entry.sessionId, [entry]);
    else list.push(entry);
  }
}
