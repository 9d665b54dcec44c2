import type { SessionServices } from './session-services.js';
import { recordSecurityEvents } from './announce-security-events.js';
import type { InitiatingEntity, SecurityEventFacts } from '../ssf/caep-events.js';
import type { RevokeReason } from '../events/session-events.js';
import { type ClientFacts, emitRefresh, emitReuse, emitRevoke } from './emit-session-events.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { randomId } from '../tokens/random-id.js';
import { boundKeyOf, REMEMBER_CLAIM } from '../tokens/token-service.js';
import { accessRemember } from './create-session.js';
import { DpopBindingError, DpopProofError } from '../errors/dpop-error.js';
import { DeviceBoundProofError } from '../errors/device-bound-error.js';
import type { DpopMode } from '../options/options.js';
import { constantTimeEqual } from '../text/constant-time-equal.js';
import type { PresentedKey } from './authenticate.js';
import type { IssuedTokens } from './create-session.js';
import { freshnessClaimsFor } from './freshness.js';
import { idleCutoff } from './session-state.js';
import { recordRefreshed, recordReuse, recordRevoked } from './session-activity.js';

/**
 * Strict single-use rotation. The refresh token is verified, the replacement pair
 * is minted, and then one atomic compare-and-swap in the store decides: the swap
 * commits (the pair is returned) or it reports why not. A replay of a consumed
 * token, or the loser of a race, finds an active session with another jti: the
 * store revokes the session in that same step, before this throws
 * `token_reuse_detected`, so the winner's replacement dies too.
 */
export async function refreshSession<U>(
  services: SessionServices<U>,
  refreshToken: string,
  client: ClientFacts,
  presented: PresentedKey = { jkt: null },
  deviceBound?: DeviceBoundPresence,
): Promise<IssuedTokens> {
  const claims = await services.tokens.verify(refreshToken, 'refresh');
  if (deviceBound !== undefined) await checkDeviceBoundRefresh(services, claims.sid, deviceBound);
  // Before any store call: a refresh token copied without its key is refused here, so it can
  // neither rotate the session nor trip reuse detection and end the owner's session.
  const jkt = checkRefreshBinding(boundKeyOf(claims.payload), presented, services.options.dpop);
  const bound = jkt === null ? {} : { jkt };
  const user = await services.users.findById(claims.sub);
  if (user === null) throw new SessauthError('invalid_user');
  // Minted before the swap, so their lifetimes are their own: the session's natural
  // end is enforced by the store on every refresh and by the guard on every request.
  const nextJti = randomId();
  // "remember": false at login travels in the refresh token, from one rotation to the next.
  const remember = claims.payload[REMEMBER_CLAIM] !== false;
  const [securityStamp, accessToken, nextRefreshToken] = await Promise.all([
    services.stampDigest(services.users.securityStamp(user)),
    services.tokens.mintAccess({ userId: claims.sub, sessionId: claims.sid, ...bound, ...accessRemember(services.options, remember) }),
    services.tokens.mintRefresh({ userId: claims.sub, sessionId: claims.sid, jti: nextJti, ...(remember ? {} : { remember: false }), ...bound }),
  ]);
  const now = services.clock.now();
  // The idle cutoff goes into the swap itself, so an idle session is refused (and revoked)
  // atomically: a refresh can never revive it.
  const cutoff = idleCutoff(services.options.sessionIdleSeconds, now);
  const outcome = await services.store.rotateRefresh({
    sessionId: claims.sid,
    userId: claims.sub,
    presentedJti: claims.jti,
    nextJti,
    securityStamp,
    now,
    ...(cutoff === undefined ? {} : { idleCutoff: cutoff }),
  });
  switch (outcome.status) {
    case 'consumed': {
      emitRefresh(services, claims.sub, claims.sid);
      await recordRefreshed(services, outcome.session, client);
      // A session that uses step-up gets its `auth_time` (never reset by a refresh) in the new
      // access token: minted again from the row the swap returned. Others keep the one above.
      const freshness = freshnessClaimsFor(services.options, outcome.session);
      const access =
        freshness === undefined
          ? accessToken
          : await services.tokens.mintAccess({
              userId: claims.sub,
              sessionId: claims.sid,
              freshness,
              ...bound,
              ...accessRemember(services.options, remember),
            });
      return {
        session: outcome.session,
        accessToken: access,
        refreshToken: nextRefreshToken,
        ...(remember ? {} : { remember: false }),
        ...(jkt === null ? {} : { dpopJkt: jkt }),
      };
    }
    case 'missing':
      throw new SessauthError('session_not_found');
    case 'wrong_user':
      throw new SessauthError('invalid_token');
    case 'security_changed':
      await recordSecurityEvents(services, [revokedBy(claims, 'security_changed', 'system', now)]);
      emitRevoke(services, claims.sub, claims.sid, 1, 'security_changed');
      await recordRevoked(services, claims.sub, [claims.sid], 'security_changed');
      throw new SessauthError('session_expired');
    case 'idle':
      await recordSecurityEvents(services, [revokedBy(claims, 'idle', 'policy', now)]);
      emitRevoke(services, claims.sub, claims.sid, 1, 'idle');
      await recordRevoked(services, claims.sub, [claims.sid], 'idle');
      throw new SessauthError('session_expired');
    case 'expired':
      throw new SessauthError('session_expired');
    case 'reused':
      services.logger.warn('token_reuse_detected', { session: claims.sid });
      await recordSecurityEvents(services, [revokedBy(claims, 'reuse', 'policy', now)]);
      emitReuse(services, claims.sub, claims.sid, client);
      await recordReuse(services, claims.sub, claims.sid, client);
      throw new SessauthError('token_reuse_detected');
  }
}

/**
 * A bound session's refresh token (its `cnf.jkt`, signed by us at login) needs a proof by that
 * same key; an unbound one is refreshed as before, but not where `required`. Returns the binding.
 */
function checkRefreshBinding(bound: string | null, presented: PresentedKey, mode: DpopMode): string | null {
  if (bound === null) {
    if (mode === 'required') throw presented.jkt === null ? new DpopProofError('missing') : new DpopBindingError('unbound_session');
    return null;
  }
  if (presented.jkt === null) throw new DpopProofError('missing');
  if (!constantTimeEqual(presented.jkt, bound)) throw new DpopProofError('key_mismatch');
  return bound;
}

/** What the refresh request proved of a DBSC key (JWT_DEVICE_BOUND_COOKIES). */
export interface DeviceBoundPresence {
  /** The session a valid, unexpired bound cookie of the request vouches for; null: none. */
  readonly provenSessionId: string | null;
}

/**
 * A session bound to a browser's DBSC key refreshes only beside its bound cookie (minted only
 * after a signature by that key, for an access token's lifetime). Refused before the swap, so a
 * refresh cookie copied without the key neither rotates the session nor trips reuse detection;
 * the session itself stays (the owner's browser renews its bound cookie and retries). An
 * unbound session refreshes as before: a browser without DBSC is never signed out for it.
 */
async function checkDeviceBoundRefresh<U>(services: SessionServices<U>, sessionId: string, presence: DeviceBoundPresence): Promise<void> {
  if (presence.provenSessionId === sessionId) return;
  const session = await services.store.findSession(sessionId);
  if ((session?.deviceBoundKey ?? null) !== null) throw new DeviceBoundProofError('bound_cookie');
}

/** The CAEP `session-revoked` of a session the refresh swap itself ended. */
function revokedBy(claims: { sub: string; sid: string }, reason: RevokeReason, initiatingEntity: InitiatingEntity, at: Date): SecurityEventFacts {
  return { event: 'session-revoked', userId: claims.sub, sessionId: claims.sid, reason, initiatingEntity, at };
}
