import type { SessionRecord } from '../store/store-port.js';
import type { PublicSession } from '../http/wire-types.js';
import { NEVER_EXPIRES } from '../sessions/create-session.js';

// Declared with the other wire bodies; re-exported for the tests that import it from here.
export type { PublicSession } from '../http/wire-types.js';

/** A stored record as one row of `GET {prefix}/sessions/`. */
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
    name: session.name ?? null,
    expires_at: session.expiresAt.getTime() >= NEVER_EXPIRES.getTime() ? null : session.expiresAt.toISOString(),
  };
}
