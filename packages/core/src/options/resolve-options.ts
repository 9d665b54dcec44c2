import { SettingsError } from '../errors/sessauth-error.js';
import { parseCidrs } from '../net/parse-cidrs.js';
import { checkPreviousKeys, checkSecurityStampKey, checkSigningKey, SIGNING_ALGORITHMS } from './check-signing-key.js';
import type { RefreshTokenTransport, ResolvedOptions, SessauthOptions, SigningAlgorithm } from './options.js';
import { parseRate } from './parse-rate.js';
import { SETTING_NAMES, type SettingKey } from './setting-names.js';
import { consoleSettingsWarnings, warnUnknownOptionKeys, type SettingsWarningLogger } from './unknown-settings.js';

const RESOLVED = Symbol('sessauth.resolvedOptions');
const DAY = 86_400;
// JWT Ninja's bounds: one year (365 days) for the refresh token and the session.
const YEAR = 365 * DAY;

/** True for an object returned by `resolveOptions` (not for a copy or a look-alike). */
export function isResolvedOptions(value: unknown): value is ResolvedOptions {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RESOLVED] === true;
}

/**
 * Applies every default of `SessauthOptions` and validates everything once, at start-up.
 * Throws a `SettingsError` whose `setting` is the `JWT_*` name and `key` the option key.
 * Each unknown key is warned about through `logger` (console.warn by default). The result is frozen.
 */
export function resolveOptions(
  options: SessauthOptions,
  { logger = consoleSettingsWarnings }: { logger?: SettingsWarningLogger } = {},
): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new SettingsError('options', 'must be an object');
  const o = options;
  warnUnknownOptionKeys(o, logger);

  const algorithm = resolveAlgorithm(o.algorithm);
  const secretKey = requiredString('secretKey', o.secretKey);
  const verifyingKey = optionalString('verifyingKey', o.verifyingKey);
  checkSigningKey(algorithm, secretKey, verifyingKey);
  const previousSecretKeys = list('previousSecretKeys', o.previousSecretKeys, () => {});
  const previousVerifyingKeys = list('previousVerifyingKeys', o.previousVerifyingKeys, () => {});
  checkPreviousKeys(algorithm, { secretKey, verifyingKey }, previousSecretKeys, previousVerifyingKeys);
  const pinnedStampKey = optionalString('securityStampKey', o.securityStampKey);
  if (pinnedStampKey !== undefined) checkSecurityStampKey(pinnedStampKey);
  // Sessions keep an HMAC of the security stamp keyed by this; if it followed a rotated
  // JWT_SECRET_KEY, every session would look like a password change and end.
  if (pinnedStampKey === undefined && previousSecretKeys.length + previousVerifyingKeys.length > 0) {
    fail(
      'securityStampKey',
      'is required when previous keys are configured: set it to the JWT_SECRET_KEY your sessions were created under (the key you are rotating away from), and keep it',
    );
  }

  const refreshTokenExpireSeconds = int('refreshTokenExpireSeconds', o.refreshTokenExpireSeconds, 14 * DAY, 1, YEAR);
  // 0: sessions never age out (only the refresh token's own lifetime and revocation end them).
  const sessionExpireSeconds = int('sessionExpireSeconds', o.sessionExpireSeconds, 14 * DAY, 0, YEAR);
  if (sessionExpireSeconds > refreshTokenExpireSeconds) {
    fail('sessionExpireSeconds', `must be 0 (never) or not exceed JWT_REFRESH_TOKEN_EXPIRE_SECONDS (${refreshTokenExpireSeconds})`);
  }
  // "remember": false at login. Never longer than a remembered session.
  const longestSession = sessionExpireSeconds === 0 ? refreshTokenExpireSeconds : sessionExpireSeconds;
  const shortSessionExpireSeconds = int('shortSessionExpireSeconds', o.shortSessionExpireSeconds, Math.min(DAY, longestSession), 1, YEAR);
  if (shortSessionExpireSeconds > longestSession) {
    const limit = sessionExpireSeconds === 0 ? 'JWT_REFRESH_TOKEN_EXPIRE_SECONDS' : 'JWT_SESSION_EXPIRE_SECONDS';
    fail('shortSessionExpireSeconds', `must not exceed ${limit} (${longestSession}), ${show(shortSessionExpireSeconds)}`);
  }
  const refreshTokenReuseGraceSeconds = int('refreshTokenReuseGraceSeconds', o.refreshTokenReuseGraceSeconds, 0, 0, YEAR);
  if (refreshTokenReuseGraceSeconds !== 0) fail('refreshTokenReuseGraceSeconds', 'must be 0: a reused refresh token always revokes the session');

  const prefix = urlPrefix('prefix', o.prefix, '/auth');
  const refreshCookieSecure = bool('refreshCookieSecure', o.refreshCookieSecure, true);
  const refreshCookieHttpOnly = bool('refreshCookieHttpOnly', o.refreshCookieHttpOnly, true);
  const refreshCookieSameSite = oneOf('refreshCookieSameSite', o.refreshCookieSameSite, 'Lax', ['Strict', 'Lax', 'None'] as const);
  if (refreshCookieSameSite === 'None' && !(refreshCookieSecure && refreshCookieHttpOnly)) {
    fail('refreshCookieSameSite', 'None requires JWT_REFRESH_COOKIE_SECURE and JWT_REFRESH_COOKIE_HTTPONLY to be true');
  }
  const refreshCookieName = cookieName('refreshCookieName', o.refreshCookieName, 'refresh_token');
  const csrfCookieName = cookieName('csrfCookieName', o.csrfCookieName, 'csrftoken');
  if (csrfCookieName === refreshCookieName) fail('csrfCookieName', 'must differ from JWT_REFRESH_COOKIE_NAME');
  const refreshCookiePath = cookiePath('refreshCookiePath', o.refreshCookiePath, `${prefix}/refresh/`);
  const refreshCookieDomain = cookieDomain('refreshCookieDomain', o.refreshCookieDomain);
  const csrfCookieSecure = bool('csrfCookieSecure', o.csrfCookieSecure, refreshCookieSecure);
  checkCookiePrefix('refreshCookieName', refreshCookieName, { secure: refreshCookieSecure, path: refreshCookiePath, domain: refreshCookieDomain });
  // The CSRF cookie is always host-only on Path /.
  checkCookiePrefix('csrfCookieName', csrfCookieName, { secure: csrfCookieSecure, path: '/', domain: undefined });

  const activityUpdateIntervalSeconds = int('activityUpdateIntervalSeconds', o.activityUpdateIntervalSeconds, 60, 0, DAY);
  const sessionIdleSeconds = int('sessionIdleSeconds', o.sessionIdleSeconds, 0, 0, YEAR);
  // A session in use is touched at most once per interval, so its recorded activity lags by up
  // to one interval: at most half the idle timeout keeps a used session from looking idle.
  if (sessionIdleSeconds > 0 && activityUpdateIntervalSeconds * 2 > sessionIdleSeconds) {
    fail(
      'sessionIdleSeconds',
      `must be 0 (off) or at least twice JWT_ACTIVITY_UPDATE_INTERVAL_SECONDS (${activityUpdateIntervalSeconds}), ${show(sessionIdleSeconds)}; lower JWT_ACTIVITY_UPDATE_INTERVAL_SECONDS or raise JWT_SESSION_IDLE_SECONDS`,
    );
  }

  const loginThrottleRate = optionalString('loginThrottleRate', o.loginThrottleRate) ?? '5/min';
  const refreshThrottleRate = optionalString('refreshThrottleRate', o.refreshThrottleRate) ?? '30/min';
  const loginAccountThrottleRate = optionalString('loginAccountThrottleRate', o.loginAccountThrottleRate) ?? '0';
  if (o.customClaims !== undefined && typeof o.customClaims !== 'function') fail('customClaims', 'must be a function');

  const resolved: ResolvedOptions = {
    secretKey,
    verifyingKey,
    previousSecretKeys,
    previousVerifyingKeys,
    securityStampKey: pinnedStampKey ?? secretKey,
    algorithm,
    issuer: requiredString('issuer', o.issuer),
    audience: requiredString('audience', o.audience),
    accessTokenExpireSeconds: int('accessTokenExpireSeconds', o.accessTokenExpireSeconds, 300, 1, DAY),
    refreshTokenExpireSeconds,
    sessionExpireSeconds,
    shortSessionExpireSeconds,
    leewaySeconds: int('leewaySeconds', o.leewaySeconds, 0, 0, 300),
    maxActiveSessions: int('maxActiveSessions', o.maxActiveSessions, 20, 1, 1000),
    refreshTokenReuseGraceSeconds,
    refreshTokenTransport: oneOf('refreshTokenTransport', o.refreshTokenTransport, 'body', [
      'body',
      'cookie',
      'both',
    ] as const satisfies readonly RefreshTokenTransport[]),
    refreshCookieName,
    refreshCookiePath,
    refreshCookieDomain,
    refreshCookieSecure,
    refreshCookieHttpOnly,
    refreshCookieSameSite,
    csrfCookieName,
    csrfCookieSecure,
    csrfTrustedOrigins: list('csrfTrustedOrigins', o.csrfTrustedOrigins, checkOrigin),
    allowedHosts: list('allowedHosts', o.allowedHosts, checkAllowedHost),
    loginThrottleRate,
    refreshThrottleRate,
    loginThrottle: parseRate(loginThrottleRate, SETTING_NAMES.loginThrottleRate, 'loginThrottleRate'),
    refreshThrottle: parseRate(refreshThrottleRate, SETTING_NAMES.refreshThrottleRate, 'refreshThrottleRate'),
    loginAccountThrottleRate,
    loginAccountThrottle: parseRate(loginAccountThrottleRate, SETTING_NAMES.loginAccountThrottleRate, 'loginAccountThrottleRate'),
    throttleIpv6Prefix: int('throttleIpv6Prefix', o.throttleIpv6Prefix, 64, 1, 128),
    trustedProxyCidrs: list('trustedProxyCidrs', o.trustedProxyCidrs, checkCidr),
    persistClientIp: bool('persistClientIp', o.persistClientIp, true),
    maxUsernameLength: int('maxUsernameLength', o.maxUsernameLength, 254, 1, 4096),
    maxPasswordLength: int('maxPasswordLength', o.maxPasswordLength, 1024, 1, 8192),
    maxTokenLength: int('maxTokenLength', o.maxTokenLength, 8192, 256, 65_536),
    maxForwardedHeaderLength: int('maxForwardedHeaderLength', o.maxForwardedHeaderLength, 2048, 7, 65_536),
    maxForwardedHops: int('maxForwardedHops', o.maxForwardedHops, 10, 1, 64),
    maxBodyBytes: int('maxBodyBytes', o.maxBodyBytes, 16_384, 1024, 1_048_576),
    geolocationTimeoutMs: int('geolocationTimeoutMs', o.geolocationTimeoutMs, 1500, 1, 60_000),
    storeBudgetMs: int('storeBudgetMs', o.storeBudgetMs, 5000, 100, 60_000),
    activityUpdateIntervalSeconds,
    sessionIdleSeconds,
    prefix,
    adminPrefix: urlPrefix('adminPrefix', o.adminPrefix, '/admin/sessauth/session'),
    customClaims: o.customClaims,
  };
  Object.defineProperty(resolved, RESOLVED, { value: true, enumerable: false });
  return Object.freeze(resolved);
}

function fail(key: SettingKey, problem: string): never {
  throw new SettingsError(SETTING_NAMES[key], problem, key);
}

/** A short, quoted echo of a bad non-secret value. */
function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}...` : value) : String(value);
  return `got ${text}`;
}

function resolveAlgorithm(value: unknown): SigningAlgorithm {
  if (value === undefined) return 'HS256';
  if (typeof value === 'string' && value.toLowerCase() === 'none') fail('algorithm', '"none" is never accepted');
  return oneOf('algorithm', value, 'HS256', SIGNING_ALGORITHMS);
}

function requiredString(key: SettingKey, value: unknown): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) fail(key, 'is required');
  if (typeof value !== 'string') fail(key, 'must be a string');
  return value;
}

function optionalString(key: SettingKey, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') fail(key, 'must be a string');
  return value;
}

function int(key: SettingKey, value: unknown, fallback: number, min: number, max: number): number {
  const n = value === undefined ? fallback : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) fail(key, `must be an integer, ${show(n)}`);
  if (n < min || n > max) fail(key, `must be between ${min} and ${max}, ${show(n)}`);
  return n;
}

function bool(key: SettingKey, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(key, `must be a boolean, ${show(value)}`);
  return value;
}

function oneOf<T extends string>(key: SettingKey, value: unknown, fallback: T, allowed: readonly T[]): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) fail(key, `must be one of ${allowed.join(', ')}; ${show(value)}`);
  return value as T;
}

function matching(key: SettingKey, value: unknown, fallback: string, pattern: RegExp, what: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !pattern.test(value)) fail(key, `must be ${what}, ${show(value)}`);
  return value;
}

function urlPrefix(key: SettingKey, value: unknown, fallback: string): string {
  return matching(key, value, fallback, /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/, "a path that starts with '/' and does not end with '/'");
}

// RFC 6265 cookie-name token.
function cookieName(key: SettingKey, value: unknown, fallback: string): string {
  return matching(key, value, fallback, /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,128}$/, 'a cookie name (RFC 6265 token characters)');
}

// Visible ASCII without ';', starting with '/'.
function cookiePath(key: SettingKey, value: unknown, fallback: string): string {
  return matching(key, value, fallback, /^\/[\x21-\x3a\x3c-\x7e]{0,1023}$/, "a path starting with '/' (no spaces or ';')");
}

function cookieDomain(key: SettingKey, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const label = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
  return matching(key, value, '', new RegExp(`^\\.?${label}(?:\\.${label})*$`), 'a host name such as example.com');
}

function list(key: SettingKey, value: unknown, check: (item: string) => void): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) fail(key, 'must be an array of strings');
  for (const item of value) check(item);
  return Object.freeze([...value]);
}

/**
 * The same strict parser the client-IP resolver uses (four-part decimal IPv4, no zone ids).
 * A range wider than /8 (IPv4) or /32 (IPv6) is refused: `0.0.0.0/0` would let any client
 * write its own X-Forwarded-For, and no operator controls a network that large.
 */
function checkCidr(cidr: string): void {
  let range: ReturnType<typeof parseCidrs>[number];
  try {
    [range] = parseCidrs([cidr]) as [ReturnType<typeof parseCidrs>[number]];
  } catch {
    fail(
      'trustedProxyCidrs',
      `each entry must be an IP address or CIDR range such as 10.0.0.0/8 (four-part decimal IPv4, no zone id), ${show(cidr)}`,
    );
  }
  const floor = range.address.kind() === 'ipv4' ? 8 : 32;
  if (range.prefix < floor) {
    fail(
      'trustedProxyCidrs',
      `${show(cidr)} is wider than /${floor}: list only the proxies you run (0.0.0.0/0 or ::/0 trusts every client's X-Forwarded-For)`,
    );
  }
}

interface CookieScope {
  readonly secure: boolean;
  readonly path: string;
  readonly domain: string | undefined;
}

/** Browsers drop a `__Host-` cookie unless Secure, Path=/ and host-only, and a `__Secure-` one unless Secure. */
function checkCookiePrefix(key: SettingKey, name: string, scope: CookieScope): void {
  const lower = name.toLowerCase();
  if (lower.startsWith('__host-') && (!scope.secure || scope.path !== '/' || scope.domain !== undefined)) {
    fail(key, `a "__Host-" cookie must be Secure, on Path "/" and without a Domain (browsers drop it otherwise), ${show(name)}`);
  }
  if (lower.startsWith('__secure-') && !scope.secure) {
    fail(key, `a "__Secure-" cookie must be Secure (browsers drop it otherwise), ${show(name)}`);
  }
}

/** `host`, `host:port` or `.domain` (its subdomains too), as in a `Host` header. */
function checkAllowedHost(host: string): void {
  const label = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
  const name = `(?:\\.?${label}(?:\\.${label})*|\\[[0-9A-Fa-f:.]+\\])`;
  if (!new RegExp(`^${name}(?::\\d{1,5})?$`).test(host)) {
    fail('allowedHosts', `each entry must be a host such as api.example.com, api.example.com:8443 or .example.com, ${show(host)}`);
  }
}

/** `scheme://host[:port]` exactly, as browsers send it in `Origin`. */
function checkOrigin(origin: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.origin !== origin) {
    fail('csrfTrustedOrigins', `each entry must be an origin such as https://app.example.com (no path or trailing slash), ${show(origin)}`);
  }
}
