import type { SessionServices } from './session-services.js';
import { emitRevoke } from './emit-session-events.js';
import { activityOn, recordRevoked } from './session-activity.js';
import type { RevokeReason } from '../events/session-events.js';
import type { InitiatingEntity, SecurityEventFacts } from '../ssf/caep-events.js';
import { withSecurityEvents } from './announce-security-events.js';

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
  initiatingEntity: InitiatingEntity = 'user',
): Promise<number> {
  const now = services.clock.now();
  // With the activity history on, the sessions about to end are read first so each gets its
  // `revoked` entry (the bulk update reports a count, not ids). A session created between
  // the read and the update ends without an entry.
  const ending = activityOn(services)
    ? (await services.store.listActiveSessions(userId, now)).map((session) => session.id).filter((id) => id !== exceptSessionId)
    : [];
  const count = await withSecurityEvents(
    services,
    () => bulkRevocationFacts(services, userId, reason, exceptSessionId, initiatingEntity, now),
    () =>
      exceptSessionId === undefined
        ? services.store.expireAllForUser(userId, now)
        : services.store.expireAllForUser(userId, now, { exceptSessionId }),
    (ended) => ended > 0,
  );
  emitRevoke(services, userId, null, count, reason);
  if (count > 0) await recordRevoked(services, userId, ending, reason);
  return count;
}

/**
 * Every session of the user: one SET whose subject is the user (CAEP: all of that user's
 * sessions). All but one: a SET per other session, read just before (a receiver must not end
 * the session the user kept); a session created between the read and the revocation is
 * revoked without its own SET, the narrow price of not ending the kept one elsewhere.
 */
async function bulkRevocationFacts<U>(
  services: SessionServices<U>,
  userId: string,
  reason: RevokeReason,
  exceptSessionId: string | undefined,
  initiatingEntity: InitiatingEntity,
  at: Date,
): Promise<SecurityEventFacts[]> {
  if (exceptSessionId === undefined) return [{ event: 'session-revoked', userId, sessionId: null, reason, initiatingEntity, at }];
  const others = (await services.store.listActiveSessions(userId, at)).filter((session) => session.id !== exceptSessionId);
  return others.map((session) => ({ event: 'session-revoked', userId, sessionId: session.id, reason, initiatingEntity, at }));
}
