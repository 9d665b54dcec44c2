import type { SessionServices } from './session-services.js';
import { emitRevoke } from './emit-session-events.js';
import { activityOn, recordRevoked } from './session-activity.js';
import type { RevokeReason } from '../events/session-events.js';

/**
 * Revoke every active session of `userId` in one bulk store operation, except
 * `exceptSessionId` when given (a password change that keeps this device), and fire one
 * `revoke` (`sessionId` null, with the count) when any ended. Returns how many ended.
 * Shared by `POST {prefix}/logout/all/`, `auth.changePassword` and `auth.invalidateAllForUser`.
 */
export async function endAllSessions<U>(
  services: SessionServices<U>,
  userId: string,
  reason: RevokeReason,
  exceptSessionId?: string,
): Promise<number> {
  const now = services.clock.now();
  // With the activity history on, the sessions about to end are read first so each gets its
  // `revoked` entry (the bulk update reports a count, not ids). A session created between
  // the read and the update ends without an entry.
  const ending = activityOn(services)
    ? (await services.store.listActiveSessions(userId, now)).map((session) => session.id).filter((id) => id !== exceptSessionId)
    : [];
  const count =
    exceptSessionId === undefined
      ? await services.store.expireAllForUser(userId, now)
      : await services.store.expireAllForUser(userId, now, { exceptSessionId });
  emitRevoke(services, userId, null, count, reason);
  if (count > 0) await recordRevoked(services, userId, ending, reason);
  return count;
}
