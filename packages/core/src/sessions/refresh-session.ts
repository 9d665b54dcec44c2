import type { SessionServices } from './session-services.js';
import { recordSecurityEvents } from './announce-security-events.js';
import type { InitiatingEntity, SecurityEventFacts } from '../ssf/caep-events.js';
import type { RevokeReason } from '../events/session-events.js';
import { type ClientFacts, emitRefresh, emitReuse, emitRevoke } from './emit-session-events.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { randomId } from '../tokens/random-id.js';
import { REMEMBER_CLAIM } from '../tokens/token-service.js';
import type { IssuedTokens } from './create-session.js';
import { freshnessClaimsFor } from './freshness.js';
import { idleCutoff } from './session-state.js';

/**
 * Strict single-use rotation. The refresh token is verified, the replacement pair
 * is minted, and then one atomic compare-and-swap in the store decides: the swap
 * commits (the pair is returned) or it reports why not. A replay of a consumed
 * token, or the loser of a race, finds an active session with another jti: the
 * store revokes the session in that same step, before this throws
 * `token_reuse_detected`, so the winner's replacement dies too.
 */
export async function refreshSession<U>(services: SessionServices<U>, refreshToken: string, client: ClientFacts): Promise<IssuedTokens> {
  const claims = await services.tokens.verify(refreshToken, 'refresh');
  const user = await services.users.findById(claims.sub);
  if (user === null) throw new SessauthError('invalid_user');
  // Minted before the swap, so their lifetimes are their own: the session's natural
  // end is enforced by the store on every refresh and by the guard on every request.
  const nextJti = randomId();
  // "remember": false at login travels in the refresh token, from one rotation to the next.
  const remember = claims.payload[REMEMBER_CLAIM] !== false;
  const [securityStamp, accessToken, nextRefreshToken] = await Promise.all([
    services.stampDigest(services.users.securityStamp(user)),
    services.tokens.mintAccess({ userId: claims.sub, sessionId: claims.sid }),
    services.tokens.mintRefresh({ userId: claims.sub, sessionId: claims.sid, jti: nextJti, ...(remember ? {} : { remember: false }) }),
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
      // A session that uses step-up gets its `auth_time` (never reset by a refresh) in the new
      // access token: minted again from the row the swap returned. Others keep the one above.
      const freshness = freshnessClaimsFor(services.options, outcome.session);
      const access =
        freshness === undefined ? accessToken : await services.tokens.mintAccess({ userId: claims.sub, sessionId: claims.sid, freshness });
      return { session: outcome.session, accessToken: access, refreshToken: nextRefreshToken, ...(remember ? {} : { remember: false }) };
    }
    case 'missing':
      throw new SessauthError('session_not_found');
    case 'wrong_user':
      throw new SessauthError('invalid_token');
    case 'security_changed':
      await recordSecurityEvents(services, [revokedBy(claims, 'security_changed', 'system', now)]);
      emitRevoke(services, claims.sub, claims.sid, 1, 'security_changed');
      throw new SessauthError('session_expired');
    case 'idle':
      await recordSecurityEvents(services, [revokedBy(claims, 'idle', 'policy', now)]);
      emitRevoke(services, claims.sub, claims.sid, 1, 'idle');
      throw new SessauthError('session_expired');
    case 'expired':
      throw new SessauthError('session_expired');
    case 'reused':
      services.logger.warn('token_reuse_detected', { session: claims.sid });
      await recordSecurityEvents(services, [revokedBy(claims, 'reuse', 'policy', now)]);
      emitReuse(services, claims.sub, claims.sid, client);
      throw new SessauthError('token_reuse_detected');
  }
}

/** The CAEP `session-revoked` of a session the refresh swap itself ended. */
function revokedBy(claims: { sub: string; sid: string }, reason: RevokeReason, initiatingEntity: InitiatingEntity, at: Date): SecurityEventFacts {
  return { event: 'session-revoked', userId: claims.sub, sessionId: claims.sid, reason, initiatingEntity, at };
}
