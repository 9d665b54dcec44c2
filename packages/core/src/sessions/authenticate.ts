import type { JWTPayload } from 'jose';
import { SessauthError } from '../errors/sessauth-error.js';
import type { SessionRecord } from '../store/store-port.js';
import { constantTimeEqual } from '../text/constant-time-equal.js';
import type { SessionServices } from './session-services.js';
import { isActive, isIdle } from './session-state.js';

/** What a protected host route receives. */
export interface AuthContext<U> {
  readonly user: U;
  readonly session: SessionRecord;
  /** The verified claims of the access token, custom claims (`customClaims`) included. */
  readonly claims: Readonly<JWTPayload>;
}

/**
 * The guard of every protected request: one token verification and one store read.
 * Nothing is cached across requests, so a revocation is seen at once by every
 * instance. The only write is the throttled `last_activity_at` touch, sent without
 * waiting so it can neither slow nor fail the request.
 */
export async function authenticate<U>(services: SessionServices<U>, accessToken: string): Promise<AuthContext<U>> {
  const claims = await services.tokens.verify(accessToken, 'access');
  const session = await services.store.findSession(claims.sid);
  if (session === null) throw new SessauthError('session_not_found');
  if (session.userId !== claims.sub) throw new SessauthError('invalid_token');
  const now = services.clock.now();
  // An idle session is over here without a write (the guard stays one read); the next
  // refresh revokes it in the store's compare-and-swap.
  if (!isActive(session, now) || isIdle(session, now, services.options.sessionIdleSeconds)) throw new SessauthError('session_expired');
  const user = await services.users.findById(claims.sub);
  if (user === null) throw new SessauthError('invalid_user');
  if (!constantTimeEqual(await services.stampDigest(services.users.securityStamp(user)), session.securityStamp)) {
    throw new SessauthError('session_expired');
  }
  touchIfDue(services, session.id, session.lastActivityAt, now);
  return { user, session, claims: claims.payload };
}

function touchIfDue<U>(services: SessionServices<U>, sessionId: string, lastActivityAt: Date, now: Date): void {
  const dueAt = lastActivityAt.getTime() + services.options.activityUpdateIntervalSeconds * 1000;
  if (now.getTime() < dueAt) return;
  services.store.touchSession(sessionId, now).catch((error: unknown) => {
    services.logger.warn('touch_session_failed', { error: error instanceof Error ? error.name : 'unknown' });
  });
}
