import { parseCidrs } from '../net/parse-cidrs.js';
import { ssfIssuerUrl, ssfReceivers } from './ssf-receivers.js';
import { type SessauthOptions, SIGNING_ALGORITHMS, type SigningAlgorithm } from './options.js';
import {
  bool,
  codeFunction,
  int,
  list,
  matching,
  oneOf,
  optionalMatching,
  optionalString,
  type ResolveContext,
  rate,
  requiredString,
  type SettingKind,
  show,
} from './setting-kinds.js';

const DAY = 86_400;
// JWT Ninja's bounds: one year (365 days) for the refresh token and the session.
const YEAR = 365 * DAY;

/** One setting: its environment name (null: code only), what it means (one line), and its kind (reading, default, range). */
export interface SettingRow {
  readonly env: `JWT_${string}` | null;
  readonly doc: string;
  readonly kind: SettingKind<unknown>;
}

export type SettingKey = keyof SessauthOptions;

const URL_PREFIX = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/;
const URL_PREFIX_IS = "a path that starts with '/' and does not end with '/'";
// RFC 6265 cookie-name token.
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,128}$/;
const COOKIE_NAME_IS = 'a cookie name (RFC 6265 token characters)';
const HOST_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/**
 * Every setting, one row each, in the order they resolve (a default may read the settings
 * above it). `resolveOptions` validates and defaults from it, `settingsFromEnv` reads the
 * environment by it, the unknown-setting warnings know its names, and the README's settings
 * table is rendered from it (a test holds the two equal). Rules that tie several settings
 * together are in `resolve-options.ts`.
 */
export const SETTINGS = {
  secretKey: {
    env: 'JWT_SECRET_KEY',
    doc: 'HMAC secret (at least 32/48/64 bytes for HS256/384/512) or a PEM private key',
    kind: requiredString('secret'),
  },
  verifyingKey: {
    env: 'JWT_VERIFYING_KEY',
    doc: 'PEM public key; required for RS/PS (2048+ bits), ES256/384/512, EdDSA',
    kind: optionalString('secret', 'none'),
  },
  previousSecretKeys: {
    env: 'JWT_PREVIOUS_SECRET_KEYS',
    doc: 'HMAC: earlier secrets, comma-separated, that still verify (never sign) until removed; same checks as `JWT_SECRET_KEY`',
    kind: list(() => {}, 'secret-list'),
  },
  previousVerifyingKeys: {
    env: 'JWT_PREVIOUS_VERIFYING_KEYS',
    doc: 'RS/PS/ES/EdDSA: earlier (or next) PEM public keys, one block after another, that still verify and are published in the JWK set',
    kind: list(() => {}, 'pem-list'),
  },
  securityStampKey: {
    env: 'JWT_SECURITY_STAMP_KEY',
    doc: 'key of the security-stamp HMAC kept on each session; required with previous keys (see docs/key-rotation.md)',
    kind: optionalString('secret', '`JWT_SECRET_KEY`'),
  },
  algorithm: { env: 'JWT_ALGORITHM', doc: 'signing algorithm; `none` is refused', kind: algorithm() },
  issuer: { env: 'JWT_ISSUER', doc: '`iss` of every token, checked exactly', kind: requiredString() },
  audience: { env: 'JWT_AUDIENCE', doc: '`aud` of every token, checked exactly', kind: requiredString() },
  accessTokenExpireSeconds: { env: 'JWT_ACCESS_TOKEN_EXPIRE_SECONDS', doc: 'access token lifetime', kind: int(300, 1, DAY) },
  refreshTokenExpireSeconds: {
    env: 'JWT_REFRESH_TOKEN_EXPIRE_SECONDS',
    doc: 'refresh token lifetime',
    kind: int(14 * DAY, 1, YEAR, '1209600 (14 days)'),
  },
  sessionExpireSeconds: {
    env: 'JWT_SESSION_EXPIRE_SECONDS',
    doc: 'session lifetime; at most the refresh lifetime; 0: sessions never age out',
    kind: int(14 * DAY, 0, YEAR, '1209600 (14 days)'),
  },
  shortSessionExpireSeconds: {
    env: 'JWT_SHORT_SESSION_EXPIRE_SECONDS',
    doc: 'lifetime of a session whose login said `"remember": false` (its refresh cookie is a browser-session cookie)',
    kind: int((r) => Math.min(DAY, longestSession(r)), 1, YEAR, '86400 (or the session lifetime if shorter)'),
  },
  leewaySeconds: { env: 'JWT_LEEWAY_SECONDS', doc: 'clock skew allowed on `exp`/`nbf`/`iat`', kind: int(0, 0, 300) },
  maxActiveSessions: { env: 'JWT_MAX_ACTIVE_SESSIONS', doc: 'per user; the oldest are revoked atomically at login', kind: int(20, 1, 1000) },
  refreshTokenReuseGraceSeconds: {
    env: 'JWT_REFRESH_TOKEN_REUSE_GRACE_SECONDS',
    doc: 'must be 0: there is no grace window',
    kind: int(0, 0, YEAR),
  },
  refreshTokenTransport: {
    env: 'JWT_REFRESH_TOKEN_TRANSPORT',
    doc: 'where the refresh token travels: `body`, `cookie` or `both`',
    kind: oneOf(['body', 'cookie', 'both'], 'body'),
  },
  prefix: { env: 'JWT_AUTH_PREFIX', doc: 'where the endpoints live', kind: matching('/auth', URL_PREFIX, URL_PREFIX_IS, '`/auth`') },
  refreshCookieName: {
    env: 'JWT_REFRESH_COOKIE_NAME',
    doc: 'name of the refresh cookie',
    kind: matching('refresh_token', COOKIE_NAME, COOKIE_NAME_IS, '`refresh_token`'),
  },
  refreshCookiePath: {
    env: 'JWT_REFRESH_COOKIE_PATH',
    doc: 'path of the refresh cookie; the default follows a mount path (docs/mounting.md), an explicit one is used as written',
    // Visible ASCII without ';', starting with '/'.
    kind: matching(
      (r) => `${r.prefix}/refresh/`,
      /^\/[\x21-\x3a\x3c-\x7e]{0,1023}$/,
      "a path starting with '/' (no spaces or ';')",
      '`<prefix>/refresh/`',
    ),
  },
  refreshCookieDomain: {
    env: 'JWT_REFRESH_COOKIE_DOMAIN',
    doc: 'domain of the refresh cookie',
    kind: optionalMatching(new RegExp(`^\\.?${HOST_LABEL}(?:\\.${HOST_LABEL})*$`), 'a host name such as example.com', 'host-only'),
  },
  refreshCookieSecure: { env: 'JWT_REFRESH_COOKIE_SECURE', doc: 'Secure flag of the refresh cookie', kind: bool(true) },
  refreshCookieHttpOnly: { env: 'JWT_REFRESH_COOKIE_HTTPONLY', doc: 'HttpOnly flag of the refresh cookie', kind: bool(true) },
  refreshCookieSameSite: {
    env: 'JWT_REFRESH_COOKIE_SAMESITE',
    doc: 'SameSite of the refresh cookie: `Strict`, `Lax` or `None` (which needs Secure and HttpOnly)',
    kind: oneOf(['Strict', 'Lax', 'None'], 'Lax'),
  },
  csrfCookieName: {
    env: 'JWT_CSRF_COOKIE_NAME',
    doc: 'name of the CSRF cookie (cookie and both transports)',
    kind: matching('csrftoken', COOKIE_NAME, COOKIE_NAME_IS, '`csrftoken`'),
  },
  csrfCookieSecure: {
    env: 'JWT_CSRF_COOKIE_SECURE',
    doc: 'Secure flag of the CSRF cookie',
    kind: bool((r) => r.refreshCookieSecure ?? true, 'as the refresh cookie'),
  },
  accessTokenCookie: {
    env: 'JWT_ACCESS_TOKEN_COOKIE',
    doc: 'the access token also travels in an HttpOnly SameSite=Lax cookie on Path `/`, read by the guard when no `Authorization` header came (server-rendered pages; cookie and both transports; docs/server-rendering.md)',
    kind: bool(false),
  },
  accessCookieName: {
    env: 'JWT_ACCESS_COOKIE_NAME',
    doc: 'name of the access-token cookie',
    kind: matching('access_token', COOKIE_NAME, COOKIE_NAME_IS, '`access_token`'),
  },
  accessCookieSecure: {
    env: 'JWT_ACCESS_COOKIE_SECURE',
    doc: 'Secure flag of the access-token cookie',
    kind: bool((r) => r.refreshCookieSecure ?? true, 'as the refresh cookie'),
  },
  csrfTrustedOrigins: {
    env: 'JWT_CSRF_TRUSTED_ORIGINS',
    doc: "origins (`scheme://host[:port]`, comma-separated) allowed besides the request's own",
    kind: list(checkOrigin),
  },
  allowedHosts: {
    env: 'JWT_ALLOWED_HOSTS',
    doc: "as Django's ALLOWED_HOSTS: only these `Host` values count as the request's own origin (`.example.com` matches subdomains)",
    kind: list(checkAllowedHost),
  },
  loginThrottleRate: { env: 'JWT_LOGIN_THROTTLE_RATE', doc: 'logins per client address (`5/min`, `100/hour`); `0` disables', kind: rate('5/min') },
  refreshThrottleRate: { env: 'JWT_REFRESH_THROTTLE_RATE', doc: 'refreshes per client address; `0` disables', kind: rate('30/min') },
  loginAccountThrottleRate: {
    env: 'JWT_LOGIN_ACCOUNT_THROTTLE_RATE',
    doc: 'logins per account, from any address (pick a rate a real user never reaches, such as `20/hour`); `0` disables',
    kind: rate('0'),
  },
  throttleIpv6Prefix: { env: 'JWT_THROTTLE_IPV6_PREFIX', doc: 'IPv6 clients are counted per prefix of this length', kind: int(64, 1, 128) },
  loginNetworkThrottleRate: {
    env: 'JWT_LOGIN_NETWORK_THROTTLE_RATE',
    doc: 'logins per client network (see the two prefixes below), generous: one network cannot fill the password hasher alone; `0` disables',
    kind: rate('0'),
  },
  throttleNetworkIpv4Prefix: {
    env: 'JWT_THROTTLE_NETWORK_IPV4_PREFIX',
    doc: 'the IPv4 network of the per-network login budget',
    kind: int(24, 8, 32),
  },
  throttleNetworkIpv6Prefix: {
    env: 'JWT_THROTTLE_NETWORK_IPV6_PREFIX',
    doc: 'the IPv6 network of the per-network login budget',
    kind: int(48, 16, 128),
  },
  trustedProxyCidrs: {
    env: 'JWT_TRUSTED_PROXY_CIDRS',
    doc: '`X-Forwarded-For` is read only when the peer is inside one of these ranges',
    kind: list(checkCidr),
  },
  persistClientIp: { env: 'JWT_PERSIST_CLIENT_IP', doc: '`false` stores `ip_address: null`', kind: bool(true) },
  maxUsernameLength: { env: 'JWT_MAX_USERNAME_LENGTH', doc: 'longer usernames: 401 without hashing', kind: int(254, 1, 4096) },
  maxPasswordLength: { env: 'JWT_MAX_PASSWORD_LENGTH', doc: 'longer passwords: 401 without hashing', kind: int(1024, 1, 8192) },
  maxTokenLength: { env: 'JWT_MAX_TOKEN_LENGTH', doc: 'longer tokens are refused before parsing', kind: int(8192, 256, 65_536) },
  maxForwardedHeaderLength: {
    env: 'JWT_MAX_FORWARDED_HEADER_LENGTH',
    doc: 'bound of the `X-Forwarded-For` chain, in characters',
    kind: int(2048, 7, 65_536),
  },
  maxForwardedHops: { env: 'JWT_MAX_FORWARDED_HOPS', doc: 'bound of the `X-Forwarded-For` chain, in hops', kind: int(10, 1, 64) },
  maxBodyBytes: { env: 'JWT_MAX_BODY_BYTES', doc: 'largest login and refresh body (413 beyond)', kind: int(16_384, 1024, 1_048_576) },
  geolocationTimeoutMs: { env: 'JWT_GEOLOCATION_TIMEOUT_MS', doc: 'time bound of the geolocation provider at login', kind: int(1500, 1, 60_000) },
  storeBudgetMs: {
    env: 'JWT_STORE_BUDGET_MS',
    doc: 'how long one request may wait on the stores, all its calls together; past it, 503',
    kind: int(5000, 100, 60_000),
  },
  coalesceSessionReads: {
    env: 'JWT_COALESCE_SESSION_READS',
    doc: "the guard's session reads of one event-loop turn go to the store as one batched read, where the store has one; each still starts after its request arrived",
    kind: bool(true),
  },
  activityUpdateIntervalSeconds: {
    env: 'JWT_ACTIVITY_UPDATE_INTERVAL_SECONDS',
    doc: '`last_activity_at` is written at most this often',
    kind: int(60, 0, DAY),
  },
  sessionIdleSeconds: {
    env: 'JWT_SESSION_IDLE_SECONDS',
    doc: 'a session without activity for this long is over; at least twice the activity interval',
    kind: int(0, 0, YEAR, '0 (off)'),
  },
  sensitiveActionMaxAgeSeconds: {
    env: 'JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS',
    doc: 'the password change and both bulk logouts need a login or re-authentication at most this old (RFC 9470 step-up)',
    kind: int(0, 0, YEAR, '0 (off)'),
  },
  sessionActivity: {
    env: 'JWT_SESSION_ACTIVITY',
    doc: 'keep a bounded activity history per session (`GET {prefix}/sessions/{id}/activity/`); the session list gains `last_ip_address` and `last_browser`',
    kind: bool(false),
  },
  sessionActivityMaxEntries: {
    env: 'JWT_SESSION_ACTIVITY_MAX_ENTRIES',
    doc: 'activity entries kept per session (the newest)',
    kind: int(50, 1, 1000),
  },
  sessionActivityMaxAgeSeconds: {
    env: 'JWT_SESSION_ACTIVITY_MAX_AGE_SECONDS',
    doc: 'how long an activity entry is kept; the purge deletes older ones',
    kind: int(90 * DAY, 60, 2 * YEAR, '7776000 (90 days)'),
  },
  riskSignals: {
    env: 'JWT_RISK_SIGNALS',
    doc: '`risk_signal` events and activity entries at login and refresh (new device, network, country, impossible travel, failed logins then a success); needs `JWT_SESSION_ACTIVITY`',
    kind: bool(false),
  },
  riskNetworkIpv4Prefix: {
    env: 'JWT_RISK_NETWORK_IPV4_PREFIX',
    doc: 'an IPv4 address outside this network of the login is a new network',
    kind: int(24, 8, 32),
  },
  riskNetworkIpv6Prefix: { env: 'JWT_RISK_NETWORK_IPV6_PREFIX', doc: 'the same for IPv6', kind: int(48, 8, 128) },
  riskTravelMaxKmh: {
    env: 'JWT_RISK_TRAVEL_MAX_KMH',
    doc: 'a move between two located uses faster than this (km/h) is impossible travel',
    kind: int(1000, 100, 100_000),
  },
  riskFailedLogins: {
    env: 'JWT_RISK_FAILED_LOGINS',
    doc: 'failed logins at one account within the window that make its next successful login a signal',
    kind: int(5, 1, 1000),
  },
  riskFailedLoginWindowSeconds: { env: 'JWT_RISK_FAILED_LOGIN_WINDOW_SECONDS', doc: 'the window of those failed logins', kind: int(3600, 60, DAY) },
  dpop: {
    env: 'JWT_DPOP',
    doc: 'DPoP (RFC 9449) key-bound tokens: `off`, `allowed` (a login with a `DPoP` proof binds its session) or `required`',
    kind: oneOf(['off', 'allowed', 'required'], 'off'),
  },
  deviceBoundCookies: {
    env: 'JWT_DEVICE_BOUND_COOKIES',
    doc: "Device Bound Session Credentials (W3C DBSC) for cookie transport: login invites the browser to bind the session to a key it holds; a bound session's refresh then needs a short-lived cookie only a signature by that key renews (docs/device-bound-cookies.md)",
    kind: bool(false),
  },
  adminPrefix: {
    env: 'JWT_ADMIN_PREFIX',
    doc: 'where the read-only admin listing lives',
    kind: matching('/admin/sessauth/session', URL_PREFIX, URL_PREFIX_IS, '`/admin/sessauth/session`'),
  },
  eventRawUsernames: {
    env: 'JWT_EVENT_RAW_USERNAMES',
    doc: '`login_failed` events carry the submitted username itself, not a keyed hash and its length',
    kind: bool(false),
  },
  ssfTransmitter: {
    env: 'JWT_SSF_TRANSMITTER',
    doc: 'push CAEP `session-revoked` and `credential-change` Security Event Tokens to `JWT_SSF_RECEIVERS` (OpenID SSF 1.0); needs an asymmetric key',
    kind: bool(false),
  },
  ssfIssuer: {
    env: 'JWT_SSF_ISSUER',
    doc: "the transmitter's public base URL: `iss` of every SET and the base of its metadata URLs (the prefix is appended); required with the transmitter",
    kind: ssfIssuerUrl(),
  },
  ssfReceivers: {
    env: 'JWT_SSF_RECEIVERS',
    doc: 'the streams: a JSON array of `{streamId, endpointUrl, audience, authorizationHeader?, events?, description?}`',
    kind: ssfReceivers(),
  },
  ssfMaxDeliveryAttempts: {
    env: 'JWT_SSF_MAX_DELIVERY_ATTEMPTS',
    doc: 'push attempts of one SET before it is dead-lettered (kept in the outbox as `dead` and logged)',
    kind: int(12, 1, 100),
  },
  ssfRetryBaseMilliseconds: {
    env: 'JWT_SSF_RETRY_BASE_MILLISECONDS',
    doc: 'the first retry waits about this long; each next one twice as long, with jitter',
    kind: int(2000, 10, 3_600_000),
  },
  ssfRetryMaxMilliseconds: {
    env: 'JWT_SSF_RETRY_MAX_MILLISECONDS',
    doc: 'the longest wait between two attempts',
    kind: int(900_000, 10, 86_400_000),
  },
  ssfPushTimeoutMilliseconds: {
    env: 'JWT_SSF_PUSH_TIMEOUT_MILLISECONDS',
    doc: 'one push may take this long; a claimed SET comes back to the outbox after twice this plus 5 s',
    kind: int(10_000, 100, 120_000),
  },
  ssfPollIntervalMilliseconds: {
    env: 'JWT_SSF_POLL_INTERVAL_MILLISECONDS',
    doc: 'how often the outbox is read for SETs due (retries, recovery); a new SET is pushed at once',
    kind: int(5000, 50, 3_600_000),
  },
  customClaims: { env: null, doc: 'extra claims of the access token (a function, in code only)', kind: codeFunction() },
} as const satisfies { readonly [K in SettingKey]-?: SettingRow };

function algorithm(): SettingKind<SigningAlgorithm> {
  const kind = oneOf(SIGNING_ALGORITHMS, 'HS256', { anyCaseInEnv: false });
  return {
    ...kind,
    resolve(value: unknown, context: ResolveContext) {
      if (typeof value === 'string' && value.toLowerCase() === 'none') context.fail('"none" is never accepted');
      return kind.resolve(value, context);
    },
  };
}

/** The longest a session may last: its lifetime, or the refresh token's when sessions never age out. */
export function longestSession(r: Readonly<{ sessionExpireSeconds?: number; refreshTokenExpireSeconds?: number }>): number {
  return r.sessionExpireSeconds === 0 ? (r.refreshTokenExpireSeconds ?? 0) : (r.sessionExpireSeconds ?? 0);
}

/**
 * The same strict parser the client-IP resolver uses (four-part decimal IPv4, no zone ids).
 * A range wider than /8 (IPv4) or /32 (IPv6) is refused: `0.0.0.0/0` would let any client
 * write its own X-Forwarded-For, and no operator controls a network that large.
 */
function checkCidr(cidr: string, context: ResolveContext): void {
  let range: ReturnType<typeof parseCidrs>[number];
  try {
    [range] = parseCidrs([cidr]) as [ReturnType<typeof parseCidrs>[number]];
  } catch {
    context.fail(`each entry must be an IP address or CIDR range such as 10.0.0.0/8 (four-part decimal IPv4, no zone id), ${show(cidr)}`);
  }
  const floor = range.address.kind() === 'ipv4' ? 8 : 32;
  if (range.prefix < floor) {
    context.fail(`${show(cidr)} is wider than /${floor}: list only the proxies you run (0.0.0.0/0 or ::/0 trusts every client's X-Forwarded-For)`);
  }
}

/** `host`, `host:port` or `.domain` (its subdomains too), as in a `Host` header. */
function checkAllowedHost(host: string, context: ResolveContext): void {
  const name = `(?:\\.?${HOST_LABEL}(?:\\.${HOST_LABEL})*|\\[[0-9A-Fa-f:.]+\\])`;
  if (!new RegExp(`^${name}(?::\\d{1,5})?$`).test(host)) {
    context.fail(`each entry must be a host such as api.example.com, api.example.com:8443 or .example.com, ${show(host)}`);
  }
}

/** `scheme://host[:port]` exactly, as browsers send it in `Origin`. */
function checkOrigin(origin: string, context: ResolveContext): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.origin !== origin) {
    context.fail(`each entry must be an origin such as https://app.example.com (no path or trailing slash), ${show(origin)}`);
  }
}
