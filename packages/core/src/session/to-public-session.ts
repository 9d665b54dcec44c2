import type { Location } from '../geo/location.js';
import type { SessionRecord } from '../store/store-port.js';

/** The wire shape of one row of `GET /auth/sessions/`. */
export interface PublicSession {
  id: string;
  created_at: string;
  last_activity_at: string;
  ip_address: string | null;
  user_agent: string | null;
  browser: string | null;
  location: Location | null;
  is_current: boolean;
}

export function toPublicSession(session: SessionRecord, currentSessionId: string): PublicSession {
  return {
    id: session.id,
    created_at: session.createdAt.toISOString(),
    last_activity_at: session.lastActivityAt.toISOString(),
    ip_address: session.ipAddress,
    user_agent: session.userAgent,
    browser: session.browser,
    location: session.location,
    is_current: session.id === currentSessionId,
  };
}
