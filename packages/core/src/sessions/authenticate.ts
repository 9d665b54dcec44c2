import type { JWTPayload } from 'jose';
import { DpopBindingError, DpopProofError } from '../errors/dpop-error.js';
import { SessauthError } from '../errors/sessauth-error.js';
import type { DpopMode } from '../options/options.js';
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
export async function authenticate<U>(services: SessionServices<U>, accessToken: string, presented: PresentedKey): Promise<AuthContext<U>> {
  const claims = await services.tokens.verify(accessToken, 'access');
  const session = await services.store.findSession(claims.sid);
  if (session === null) throw new SessauthError('session_not_found');
  if (session.userId !== claims.sub) throw new SessauthError('invalid_token');
  checkBinding(session, presented, services.options.dpop);
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

/**
 * How the access token was presented (JWT_DPOP on): `jkt` is the thumbprint of the key whose
 * DPoP proof came with it (already verified), null for a `Bearer` token.
 */
export interface PresentedKey {
  readonly jkt: string | null;
  /**
   * The admin pages' cookie: a browser form sign-in, which never carries a proof, so
   * `required` does not refuse its unbound session (a bound session is still refused there).
   */
  readonly proofless?: boolean;
}

/**
 * The session's binding decides (RFC 9449 s7.1): a bound session needs a proof by its own key,
 * an unbound one a `Bearer` token; `required` refuses an unbound session outright.
 */
function checkBinding(session: SessionRecord, presented: PresentedKey, mode: DpopMode): void {
  const bound = session.dpopJkt ?? null;
  if (bound === null) {
    if (presented.jkt !== null) throw new DpopBindingError('dpop_scheme_unbound_session');
    if (mode === 'required' && presented.proofless !== true) throw new DpopBindingError('unbound_session');
    return;
  }
  if (presented.jkt === null) throw new DpopBindingError('bearer_scheme_bound_session');
  if (!constantTimeEqual(presented.jkt, bound)) throw new DpopProofError('key_mismatch');
}

function touchIfDue<U>(services: SessionServices<U>, sessionId: string, lastActivityAt: Date, now: Date): void {
  const dueAt = lastActivityAt.getTime() + services.options.activityUpdateIntervalSeconds * 1000;
  if (now.getTime() < dueAt) return;
  services.store.touchSession(sessionId, now).catch((error: unknown) => {
    services.logger.warn('touch_session_failed', { error: error instanceof Error ? error.name : 'unknown' });
  });
}
