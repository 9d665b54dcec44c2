import type { SessionServices } from './session-services.js';
import { emitRevoke } from './emit-session-events.js';
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
  const count =
    exceptSessionId === undefined
      ? await services.store.expireAllForUser(userId, now)
      : await services.store.expireAllForUser(userId, now, { exceptSessionId });
  emitRevoke(services, userId, null, count, reason);
  return count;
}
