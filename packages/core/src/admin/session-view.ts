import type { Location } from '../geo/location.js';
import { isActive } from '../sessions/session-state.js';
import type { SessionRecord } from '../store/store-port.js';
import type { ActivityEntry } from '../store/activity-port.js';
import type { PublicActivityEntry } from '../http/wire-types.js';
import { toPublicActivity } from '../endpoints/public-activity.js';
import { lastClientOf } from '../sessions/session-activity.js';
import { signalsOf } from './page-activity.js';

/**
 * A session as the admin listing shows it: `active`; `revoked` (ended by logout,
 * reuse detection, a password change or the cap; `expired_at` says when); or
 * `expired` (reached its natural end at `expires_at`).
 */
export type AdminSessionStatus = 'active' | 'revoked' | 'expired';

/** One row of the JSON listing. Never the refresh jti or the security stamp. */
export interface AdminSessionJson {
  id: string;
  user_id: string;
  status: AdminSessionStatus;
  created_at: string;
  last_activity_at: string;
  expires_at: string;
  expired_at: string | null;
  ip_address: string | null;
  user_agent: string | null;
  browser: string | null;
  location: Location | null;
  /** Only with JWT_SESSION_ACTIVITY: the last client recorded (the login's until a refresh from elsewhere). */
  last_ip_address?: string | null;
  last_browser?: string | null;
  /** Only with JWT_SESSION_ACTIVITY: the distinct risk signals of the history (`new_device`...). */
  signals?: string[];
  /** Only with JWT_SESSION_ACTIVITY: the history, oldest first, as `GET {prefix}/sessions/{id}/activity/` answers it. */
  activity?: PublicActivityEntry[];
}

export function adminSessionStatus(session: SessionRecord, now: Date): AdminSessionStatus {
  if (isActive(session, now)) return 'active';
  return session.expiredAt === null ? 'expired' : 'revoked';
}

export function toAdminSessionJson(session: SessionRecord, now: Date, history: readonly ActivityEntry[] | null): AdminSessionJson {
  const row: AdminSessionJson = {
    id: session.id,
    user_id: session.userId,
    status: adminSessionStatus(session, now),
    created_at: session.createdAt.toISOString(),
    last_activity_at: session.lastActivityAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
    expired_at: session.expiredAt === null ? null : session.expiredAt.toISOString(),
    ip_address: session.ipAddress,
    user_agent: session.userAgent,
    browser: session.browser,
    location: session.location,
  };
  if (history === null) return row;
  const { last } = lastClientOf(session, history);
  return {
    ...row,
    last_ip_address: last.ipAddress,
    last_browser: last.browser,
    signals: signalsOf(history),
    activity: history.map(toPublicActivity),
  };
}

/** "City, Region, Country (CC)" from whatever fields the provider gave; '' when none. */
export function describeLocation(location: Location | null): string {
  if (location === null) return '';
  const place = [location.city, location.region, location.country].filter((part) => part !== undefined && part !== '');
  const code = location.country_code;
  if (place.length === 0) return code ?? '';
  return code === undefined ? place.join(', ') : `${place.join(', ')} (${code})`;
}
