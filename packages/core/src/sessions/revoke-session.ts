import type { SessionServices } from './session-services.js';
import { emitRevoke } from './emit-session-events.js';
import { recordRevoked } from './session-activity.js';
import type { RevokeReason } from '../events/session-events.js';
import type { InitiatingEntity } from '../ssf/caep-events.js';
import { withSecurityEvents } from './announce-security-events.js';

// The shape of every id the core mints (base64url); anything else cannot be a session.
const SESSION_ID_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

/** True for a string that could be an id the core minted; anything else is never sent to a store. */
export function isSessionIdShape(sessionId: unknown): sessionId is string {
  return typeof sessionId === 'string' && SESSION_ID_SHAPE.test(sessionId);
}

/**
 * Revoke one active session of `userId` and fire `revoke` with `reason` (and, with the
 * Shared Signals transmitter on, its CAEP `session-revoked` SET through the outbox). False, with
 * nothing changed and no event, for another user's, an ended, an unknown or a malformed
 * id alike. Shared by `DELETE {prefix}/sessions/{id}/` and `auth.revokeSession`.
 */
export async function revokeSession<U>(
  services: SessionServices<U>,
  userId: string,
  sessionId: string,
  reason: RevokeReason,
  initiatingEntity: InitiatingEntity = 'user',
): Promise<boolean> {
  if (!isSessionIdShape(sessionId)) return false;
  const now = services.clock.now();
  const revoked = await withSecurityEvents(
    services,
    () => [{ event: 'session-revoked', userId, sessionId, reason, initiatingEntity, at: now }],
    () => services.store.expireSession(sessionId, userId, now),
    (ended) => ended,
  );
  if (revoked) {
    emitRevoke(services, userId, sessionId, 1, reason);
    await recordRevoked(services, userId, [sessionId], reason);
  }
  return revoked;
}
