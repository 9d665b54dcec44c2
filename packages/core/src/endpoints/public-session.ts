import type { SessionRecord } from '../store/store-port.js';
import type { PublicSession } from '../http/wire-types.js';
import { NEVER_EXPIRES } from '../sessions/create-session.js';
import { activityOn, lastClientOf, readActivity } from '../sessions/session-activity.js';
import type { SessionServices } from '../sessions/session-services.js';

// Declared with the other wire bodies; re-exported for the tests that import it from here.
export type { PublicSession } from '../http/wire-types.js';

/** The last recorded client of a session (JWT_SESSION_ACTIVITY only). */
export interface LastClient {
  readonly ipAddress: string | null;
  readonly browser: string | null;
}

/**
 * A stored record as one row of `GET {prefix}/sessions/`. `lastClient` (only with the activity
 * history on) adds `last_ip_address` and `last_browser`; without it the row is the seed's, key for key.
 */
export function toPublicSession(session: SessionRecord, currentSessionId: string, lastClient?: LastClient): PublicSession {
  const row: PublicSession = {
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
  if (lastClient !== undefined) {
    row.last_ip_address = lastClient.ipAddress;
    row.last_browser = lastClient.browser;
  }
  return row;
}

/**
 * The rows of `GET {prefix}/sessions/` (and `auth.listSessions`): with the activity history on,
 * one more read (the listed sessions' histories, one store call) gives each row its last client.
 */
export async function toPublicSessions<U>(
  services: SessionServices<U>,
  sessions: readonly SessionRecord[],
  currentSessionId: string,
): Promise<PublicSession[]> {
  if (!activityOn(services) || sessions.length === 0) return sessions.map((session) => toPublicSession(session, currentSessionId));
  const userId = sessions[0]?.userId ?? '';
  const histories = await readActivity(
    services,
    userId,
    sessions.map((session) => session.id),
  );
  return sessions.map((session) => {
    const { last } = lastClientOf(session, histories.get(session.id) ?? []);
    return toPublicSession(session, currentSessionId, { ipAddress: last.ipAddress, browser: last.browser });
  });
}
