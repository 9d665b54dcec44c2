import type { SessionServices } from './session-services.js';
import { lookupLocation } from '../geo/lookup-location.js';
import type { SessionRecord } from '../store/store-port.js';
import { randomId } from '../tokens/random-id.js';
import { freshnessClaimsFor } from './freshness.js';
import { capCandidates, recordCapRevoked, recordCreated } from './session-activity.js';
import { describeUserAgent, storedUserAgent } from '../ua/describe-user-agent.js';

/**
 * The stored expiry of a session that never ages out (JWT_SESSION_EXPIRE_SECONDS=0):
 * the last instant every store can hold, so the port keeps one non-null expiry.
 */
export const NEVER_EXPIRES = new Date(Date.UTC(9999, 11, 31, 23, 59, 59));

export interface LoginFacts {
  readonly clientIp: string | null;
  readonly userAgent: string | undefined;
  /**
   * `false` ("remember": false at login): the session lasts `shortSessionExpireSeconds` and its
   * refresh cookie is a browser-session cookie. Absent or `true`: today's behaviour.
   */
  readonly remember?: boolean;
  /** How the user proved who they are (RFC 8176 `amr`); absent: unknown ([]). */
  readonly amr?: readonly string[];
  /** The authentication context class reached, when the host names one. */
  readonly acr?: string | null;
  /**
   * With JWT_RISK_SIGNALS: the attempts at this account within the failed-login window before
   * this success (the login endpoint counts them); absent or null: not counted.
   */
  readonly failedLogins?: number | null;
  /** The thumbprint of the DPoP key whose proof came with the login (JWT_DPOP): the session is bound to it. */
  readonly dpopJkt?: string | null;
}

export interface IssuedTokens {
  readonly session: SessionRecord;
  readonly accessToken: string;
  readonly refreshToken: string;
  /** `false` for a session whose login said `"remember": false` (no Max-Age on the refresh cookie). */
  readonly remember?: boolean;
  /** Set when the session is bound to a DPoP key: the answer says `token_type: "DPoP"`. */
  readonly dpopJkt?: string;
}

/**
 * Login's state change: a new active session holding the client's IP (a hint),
 * User-Agent, the HMAC of the user's security stamp and the first refresh jti.
 * Tokens are minted first and handed out only once the store committed the row
 * (and evicted the oldest sessions beyond the cap in the same step).
 */
export async function createSession<U>(services: SessionServices<U>, user: U, facts: LoginFacts): Promise<IssuedTokens> {
  const { options, clock } = services;
  const userId = services.users.idOf(user);
  const now = clock.now();
  const remember = facts.remember !== false;
  const lifetime = remember ? options.sessionExpireSeconds : options.shortSessionExpireSeconds;
  const expiresAt = lifetime === 0 ? NEVER_EXPIRES : new Date(now.getTime() + lifetime * 1000);
  const id = randomId();
  const refreshJti = randomId();
  const userAgent = storedUserAgent(facts.userAgent);
  const acr = facts.acr ?? null;
  const dpopJkt = facts.dpopJkt ?? null;
  const bound = dpopJkt === null ? {} : { jkt: dpopJkt };
  const freshness = freshnessClaimsFor(options, { createdAt: now, authTime: now, acr });
  const [securityStamp, location, accessToken, refreshToken, capped] = await Promise.all([
    services.stampDigest(services.users.securityStamp(user)),
    lookupLocation(services.geolocation, facts.clientIp, { timeoutMs: options.geolocationTimeoutMs, logger: services.logger }),
    services.tokens.mintAccess({
      userId,
      sessionId: id,
      notAfter: expiresAt,
      ...(freshness === undefined ? {} : { freshness }),
      ...bound,
      ...accessRemember(options, remember),
    }),
    services.tokens.mintRefresh({ userId, sessionId: id, jti: refreshJti, notAfter: expiresAt, ...(remember ? {} : { remember: false }), ...bound }),
    // With the history on: who the cap may revoke, so their history says why they ended.
    capCandidates(services, userId, now),
  ]);
  const session = await services.store.createSession({
    session: {
      id,
      userId,
      refreshJti,
      securityStamp,
      createdAt: now,
      expiresAt,
      ipAddress: options.persistClientIp ? facts.clientIp : null,
      userAgent,
      browser: describeUserAgent(userAgent),
      location,
      authTime: now,
      amr: [...(facts.amr ?? [])],
      acr,
      // Only a bound session names the field: an unbound row is written exactly as before.
      ...(dpopJkt === null ? {} : { dpopJkt }),
    },
    maxActiveSessions: options.maxActiveSessions,
  });
  await recordCapRevoked(services, capped, session);
  await recordCreated(services, session, facts.failedLogins ?? null);
  return { session, accessToken, refreshToken, ...(remember ? {} : { remember: false }), ...(dpopJkt === null ? {} : { dpopJkt }) };
}

/**
 * The access token's `remember: false`, only with the access-token cookie on: a step-up, which
 * sees the access token and not the refresh token, then keeps the cookie a browser-session one.
 */
export function accessRemember(options: { readonly accessTokenCookie: boolean }, remember: boolean): { remember?: false } {
  return options.accessTokenCookie && !remember ? { remember: false } : {};
}
