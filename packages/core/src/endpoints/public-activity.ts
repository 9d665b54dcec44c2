import type { PublicActivityEntry } from '../http/wire-types.js';
import type { ActivityEntry } from '../store/activity-port.js';

/** A stored activity entry as one element of `GET {prefix}/sessions/{id}/activity/`. */
export function toPublicActivity(entry: ActivityEntry): PublicActivityEntry {
  return {
    kind: entry.kind,
    at: entry.at.toISOString(),
    ip_address: entry.ipAddress,
    browser: entry.browser,
    location: entry.location,
    detail: entry.detail,
  };
}
