import type { JWTPayload } from 'jose';
import type { SsfReceiver } from './ssf-receiver.js';

/** Signing algorithms the core accepts (`none` never). */
export type SigningAlgorithm =
  | 'HS256'
  | 'HS384'
  | 'HS512'
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512'
  | 'ES256'
  | 'ES384'
  | 'ES512'
  | 'EdDSA';

/** Every signing algorithm the core accepts, as `JWT_ALGORITHM` spells it. */
export const SIGNING_ALGORITHMS: readonly SigningAlgorithm[] = [
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

export type RefreshTokenTransport = 'body' | 'cookie' | 'both';

/** JWT_DPOP: whether sessions may (`allowed`) or must (`required`) be bound to a DPoP key (RFC 9449). */
export type DpopMode = 'off' | 'allowed' | 'required';

/**
 * Everything that shapes behaviour, as a typed object. Names mirror the `JWT_*`
 * environment settings (`settingsFromEnv` maps one onto the other). Validated once by
 * `resolveOptions`, which fails with a `SettingsError` naming the setting.
 */
export interface SessauthOptions {
  /** JWT_SECRET_KEY. HMAC key (UTF-8 bytes; 32/48/64+ bytes for HS256/384/512) or a PEM private key. Required. */
  secretKey: string;
  /** JWT_VERIFYING_KEY. PEM public key; required for asymmetric algorithms. */
  verifyingKey?: string;
  /**
   * JWT_PREVIOUS_SECRET_KEYS (comma-separated in the environment). HMAC only: earlier values of
   * `secretKey` that still verify tokens (never sign) until removed, so rotating the key logs
   * nobody out. Each passes the same checks as `secretKey`. @default []
   */
  previousSecretKeys?: readonly string[];
  /**
   * JWT_PREVIOUS_VERIFYING_KEYS (PEM blocks one after another in the environment). Asymmetric
   * only: earlier (or next) PEM public keys that still verify tokens and are published in the
   * JWKS until removed. @default []
   */
  previousVerifyingKeys?: readonly string[];
  /**
   * JWT_SECURITY_STAMP_KEY. The key of the HMAC of the user's security stamp kept on each
   * session. @default `secretKey` (as before). Required with previous keys: pin it to the key the
   * sessions were created under, or rotating `secretKey` would end every session.
   */
  securityStampKey?: string;
  /** JWT_ALGORITHM. @default 'HS256' */
  algorithm?: SigningAlgorithm;
  /** JWT_ISSUER. Required, non-blank. */
  issuer: string;
  /** JWT_AUDIENCE. Required, non-blank; compared exactly. */
  audience: string;
  /** JWT_ACCESS_TOKEN_EXPIRE_SECONDS. 1..86400. @default 300 */
  accessTokenExpireSeconds?: number;
  /** JWT_REFRESH_TOKEN_EXPIRE_SECONDS. 1..31536000 (one year). @default 1209600 (14 days) */
  refreshTokenExpireSeconds?: number;
  /**
   * JWT_SESSION_EXPIRE_SECONDS. The session's absolute lifetime, at most the refresh lifetime;
   * 0: sessions never age out (only the refresh token's own lifetime and revocation end them).
   * @default 1209600
   */
  sessionExpireSeconds?: number;
  /**
   * JWT_SHORT_SESSION_EXPIRE_SECONDS. The absolute lifetime of a session whose login said
   * `"remember": false` (its refresh cookie is also a browser-session cookie, without Max-Age).
   * 1.. the session lifetime (the refresh lifetime when that is 0).
   * @default 86400 (one day), or the session lifetime when that is shorter
   */
  shortSessionExpireSeconds?: number;
  /** JWT_LEEWAY_SECONDS. Clock skew allowed on `exp`/`nbf`/`iat`. @default 0 */
  leewaySeconds?: number;
  /** JWT_MAX_ACTIVE_SESSIONS. The oldest are revoked at login beyond it. @default 20 */
  maxActiveSessions?: number;
  /** JWT_REFRESH_TOKEN_REUSE_GRACE_SECONDS. Must be 0. @default 0 */
  refreshTokenReuseGraceSeconds?: number;
  /** JWT_REFRESH_TOKEN_TRANSPORT. @default 'body' */
  refreshTokenTransport?: RefreshTokenTransport;
  /** JWT_REFRESH_COOKIE_NAME. @default 'refresh_token' */
  refreshCookieName?: string;
  /**
   * JWT_REFRESH_COOKIE_PATH. The default follows the path the adapter is mounted under
   * (`/api/auth/refresh/` under `app.use('/api', ...)`); an explicit one is the cookie's Path as written.
   * @default `${prefix}/refresh/`
   */
  refreshCookiePath?: string;
  /** JWT_REFRESH_COOKIE_DOMAIN. @default none (host-only) */
  refreshCookieDomain?: string;
  /** JWT_REFRESH_COOKIE_SECURE. @default true */
  refreshCookieSecure?: boolean;
  /** JWT_REFRESH_COOKIE_HTTPONLY. @default true */
  refreshCookieHttpOnly?: boolean;
  /** JWT_REFRESH_COOKIE_SAMESITE. None needs Secure and HttpOnly. @default 'Lax' */
  refreshCookieSameSite?: 'Strict' | 'Lax' | 'None';
  /** JWT_CSRF_COOKIE_NAME. @default 'csrftoken' */
  csrfCookieName?: string;
  /** JWT_CSRF_COOKIE_SECURE. @default same as refreshCookieSecure */
  csrfCookieSecure?: boolean;
  /**
   * JWT_ACCESS_TOKEN_COOKIE. The access token also travels in an HttpOnly, SameSite=Lax cookie on
   * Path `/` (set wherever an access token is issued, cleared at logout), which the guard and the
   * adapters' session helpers read when no `Authorization` header came: server-rendered page loads
   * then have a session. Unsafe methods authenticated by it need the CSRF token. Cookie and both
   * transports only (see docs/server-rendering.md). @default false
   */
  accessTokenCookie?: boolean;
  /** JWT_ACCESS_COOKIE_NAME. @default 'access_token' */
  accessCookieName?: string;
  /** JWT_ACCESS_COOKIE_SECURE. @default same as refreshCookieSecure */
  accessCookieSecure?: boolean;
  /** JWT_CSRF_TRUSTED_ORIGINS. Extra origins (scheme://host[:port]) allowed besides the request's own. @default [] */
  csrfTrustedOrigins?: readonly string[];
  /**
   * JWT_ALLOWED_HOSTS. As Django's ALLOWED_HOSTS: when set, only these `Host` values (a
   * leading `.` also matches subdomains; a `:port` pins the port) count as the request's own
   * origin for the CSRF check and the admin forms, instead of trusting any `Host`. @default []
   */
  allowedHosts?: readonly string[];
  /** JWT_LOGIN_THROTTLE_RATE. `5/min`, `100/hour`, `0` disables. @default '5/min' */
  loginThrottleRate?: string;
  /** JWT_REFRESH_THROTTLE_RATE. @default '30/min' */
  refreshThrottleRate?: string;
  /**
   * JWT_LOGIN_ACCOUNT_THROTTLE_RATE. A second login budget per account, beside the per-address
   * one: it stops one username being guessed from many addresses. Counted under a keyed hash
   * of the username (trimmed, NFKC, lower-cased) on the same rate-limit store, for existing
   * and unknown usernames alike; over it the login answers the same 429 as the address limit.
   * Anyone who knows a username can spend its budget, so pick a rate that a real user never
   * reaches (e.g. `20/hour`). `0` disables. @default '0'
   */
  loginAccountThrottleRate?: string;
  /** JWT_THROTTLE_IPV6_PREFIX. IPv6 clients are counted per prefix of this length. @default 64 */
  throttleIpv6Prefix?: number;
  /**
   * JWT_LOGIN_NETWORK_THROTTLE_RATE. A third login budget, per client network (an IPv4 /24, an
   * IPv6 /48 by default), so one network cannot fill the password hasher's line alone by
   * rotating addresses. Pick a rate well above what the users behind one network (an office,
   * a carrier's NAT) send together, such as `300/min`. `0` disables. @default '0'
   */
  loginNetworkThrottleRate?: string;
  /** JWT_THROTTLE_NETWORK_IPV4_PREFIX. The IPv4 network of the per-network login budget. @default 24 */
  throttleNetworkIpv4Prefix?: number;
  /** JWT_THROTTLE_NETWORK_IPV6_PREFIX. The IPv6 network of the per-network login budget. @default 48 */
  throttleNetworkIpv6Prefix?: number;
  /**
   * JWT_EVENT_RAW_USERNAMES. `login_failed` events carry the submitted username itself. Off by
   * default: a password typed into the username box would arrive verbatim; the event carries
   * a keyed hash of the (normalised) username and its length instead. @default false
   */
  eventRawUsernames?: boolean;
  /** JWT_TRUSTED_PROXY_CIDRS. X-Forwarded-For is read only when the peer is inside. @default [] */
  trustedProxyCidrs?: readonly string[];
  /** JWT_PERSIST_CLIENT_IP. @default true */
  persistClientIp?: boolean;
  /** JWT_MAX_USERNAME_LENGTH. @default 254 */
  maxUsernameLength?: number;
  /** JWT_MAX_PASSWORD_LENGTH. @default 1024 */
  maxPasswordLength?: number;
  /** JWT_MAX_TOKEN_LENGTH. @default 8192 */
  maxTokenLength?: number;
  /** JWT_MAX_FORWARDED_HEADER_LENGTH. @default 2048 */
  maxForwardedHeaderLength?: number;
  /** JWT_MAX_FORWARDED_HOPS. @default 10 */
  maxForwardedHops?: number;
  /** JWT_MAX_BODY_BYTES. Login/refresh bodies beyond it get 413. @default 16384 */
  maxBodyBytes?: number;
  /** JWT_GEOLOCATION_TIMEOUT_MS. @default 1500 */
  geolocationTimeoutMs?: number;
  /**
   * JWT_STORE_BUDGET_MS. How long one request may wait on the stores, all its calls together
   * (a login's throttle and its session write, a refresh's throttle and its rotation); past it
   * the request answers 503 at once. Each store also bounds each call (the Kysely stores' own
   * deadline is 5000 ms), but two calls in a row could take twice that. @default 5000
   */
  storeBudgetMs?: number;
  /**
   * JWT_COALESCE_SESSION_READS. The guard's session reads of the requests that arrive in one
   * event-loop turn go to the store as one batched read (`findSessions`: one statement, one
   * pipeline), where the store has it (PostgreSQL, MySQL/MariaDB, Redis; SQLite and the memory
   * store answer at once and have nothing to coalesce). A read still starts after its request arrived,
   * so a revocation acknowledged before a request is always seen by it; see
   * docs/coalesced-reads.md. @default true
   */
  coalesceSessionReads?: boolean;
  /** JWT_ACTIVITY_UPDATE_INTERVAL_SECONDS. `last_activity_at` is written at most this often. @default 60 */
  activityUpdateIntervalSeconds?: number;
  /**
   * JWT_SESSION_IDLE_SECONDS. A session with no activity (no authenticated request, no refresh)
   * for this long is over: the guard and the list treat it as ended, and the refresh revokes it.
   * Must be at least twice `activityUpdateIntervalSeconds`. 0: off. @default 0
   */
  sessionIdleSeconds?: number;
  /**
   * JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS. When set, the built-in sensitive actions (the password
   * change, `POST {prefix}/logout/all/`, `POST {prefix}/logout/others/`) need a session whose
   * user proved who they are (login or `POST {prefix}/reauthenticate/`) at most this many seconds
   * ago; a staler one is 401 `insufficient_user_authentication` (RFC 9470). 0: off. @default 0
   */
  sensitiveActionMaxAgeSeconds?: number;
  /**
   * JWT_SESSION_ACTIVITY. Keep a bounded, append-only activity history per session (created,
   * refreshed, stepped up, renamed, revoked, reuse detected), served at
   * `GET {prefix}/sessions/{id}/activity/` and `auth.listActivity`; the session list gains
   * `last_ip_address` and `last_browser`. Needs a store with `appendActivity`. @default false
   */
  sessionActivity?: boolean;
  /** JWT_SESSION_ACTIVITY_MAX_ENTRIES. Entries kept per session, the newest. @default 50 */
  sessionActivityMaxEntries?: number;
  /** JWT_SESSION_ACTIVITY_MAX_AGE_SECONDS. How long an entry is kept (the purge deletes older ones). @default 7776000 (90 days) */
  sessionActivityMaxAgeSeconds?: number;
  /**
   * JWT_RISK_SIGNALS. Compute risk signals at login and refresh (new device, new network, new
   * country, impossible travel, failed logins then a success), delivered as `risk_signal`
   * events and recorded in the activity history. Never revokes anything. Needs
   * JWT_SESSION_ACTIVITY. @default false
   */
  riskSignals?: boolean;
  /** JWT_RISK_NETWORK_IPV4_PREFIX. An IPv4 address outside the login's network of this prefix is a new network. @default 24 */
  riskNetworkIpv4Prefix?: number;
  /** JWT_RISK_NETWORK_IPV6_PREFIX. The same for IPv6. @default 48 */
  riskNetworkIpv6Prefix?: number;
  /** JWT_RISK_TRAVEL_MAX_KMH. A move between two located uses faster than this is impossible travel. @default 1000 */
  riskTravelMaxKmh?: number;
  /** JWT_RISK_FAILED_LOGINS. Failed logins at one account within the window that make its next success a signal. @default 5 */
  riskFailedLogins?: number;
  /** JWT_RISK_FAILED_LOGIN_WINDOW_SECONDS. The window of those failed logins. @default 3600 */
  riskFailedLoginWindowSeconds?: number;
  /**
   * JWT_DPOP. DPoP (RFC 9449) for token clients: `allowed` binds a session whose login carries a
   * valid `DPoP` proof to that key (its access tokens then need `Authorization: DPoP` and a fresh
   * proof on every request, its refresh a proof by the same key); `required` also refuses a login,
   * refresh or guarded request without one. `off` reads no proof. See docs/dpop.md. @default 'off'
   */
  dpop?: DpopMode;
  /**
   * JWT_DEVICE_BOUND_COOKIES. Device Bound Session Credentials (W3C DBSC draft) for cookie and both
   * transports: login answers with `Secure-Session-Registration`, a browser that supports it binds
   * the session to a key it holds (`POST {prefix}/device-bound/registration/`), and from then on
   * the session's refresh needs a short-lived bound cookie that only a signature by that key renews
   * (`POST {prefix}/device-bound/refresh/`). A browser that never registers keeps an ordinary
   * session. See docs/device-bound-cookies.md. @default false
   */
  deviceBoundCookies?: boolean;
  /** JWT_AUTH_PREFIX. Where the endpoints live. @default '/auth' */
  prefix?: string;
  /** JWT_ADMIN_PREFIX. Where the admin listing lives. @default '/admin/sessauth/session' */
  adminPrefix?: string;
  /**
   * JWT_SSF_TRANSMITTER. Push CAEP `session-revoked` (every revocation) and `credential-change`
   * (password change) Security Event Tokens to `ssfReceivers` (OpenID SSF 1.0, RFC 8417, RFC
   * 8935), at least once, from an outbox in the store. Needs an asymmetric `algorithm`, `ssfIssuer`
   * and a store with the outbox operations. See docs/shared-signals.md. @default false
   */
  ssfTransmitter?: boolean;
  /** JWT_SSF_ISSUER. The transmitter's public base URL (`iss` of each SET; the metadata URLs are built on it). */
  ssfIssuer?: string | undefined;
  /** JWT_SSF_RECEIVERS. The streams SETs are pushed to (JSON in the environment). @default [] */
  ssfReceivers?: readonly SsfReceiver[];
  /** JWT_SSF_MAX_DELIVERY_ATTEMPTS. @default 12 */
  ssfMaxDeliveryAttempts?: number;
  /** JWT_SSF_RETRY_BASE_MILLISECONDS. @default 2000 */
  ssfRetryBaseMilliseconds?: number;
  /** JWT_SSF_RETRY_MAX_MILLISECONDS. @default 900000 */
  ssfRetryMaxMilliseconds?: number;
  /** JWT_SSF_PUSH_TIMEOUT_MILLISECONDS. @default 10000 */
  ssfPushTimeoutMilliseconds?: number;
  /** JWT_SSF_POLL_INTERVAL_MILLISECONDS. @default 5000 */
  ssfPollIntervalMilliseconds?: number;
  /**
   * Extra claims for the access token. Reserved claims (iss, aud, sub, sid, iat, nbf,
   * exp, jti, typ) cannot be overridden: returning one throws at mint time.
   */
  customClaims?: (ctx: { userId: string; sessionId: string }) => JWTPayload | Promise<JWTPayload>;
}

/** The options after defaults and validation. */
export interface ResolvedOptions
  extends Readonly<Required<Omit<SessauthOptions, 'verifyingKey' | 'refreshCookieDomain' | 'customClaims' | 'securityStampKey' | 'ssfIssuer'>>> {
  readonly verifyingKey: string | undefined;
  /** `securityStampKey` when set, else `secretKey`. */
  readonly securityStampKey: string;
  readonly refreshCookieDomain: string | undefined;
  readonly customClaims: SessauthOptions['customClaims'];
  readonly ssfIssuer: string | undefined;
  readonly loginThrottle: RateSpec | null;
  readonly refreshThrottle: RateSpec | null;
  readonly loginAccountThrottle: RateSpec | null;
  readonly loginNetworkThrottle: RateSpec | null;
}

/** A parsed rate: at most `limit` hits per `windowSec`. */
export interface RateSpec {
  readonly limit: number;
  readonly windowSec: number;
}
