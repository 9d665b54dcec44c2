import { SettingsError } from '../errors/sessauth-error.js';
import { checkPreviousKeys, checkSecurityStampKey, checkSigningKey } from './check-signing-key.js';
import type { ResolvedOptions, SessauthOptions } from './options.js';
import { parseRate } from './parse-rate.js';
import { show } from './setting-kinds.js';
import { SETTING_NAMES } from './setting-names.js';
import { longestSession, type SettingKey, type SettingRow, SETTINGS } from './settings-table.js';
import { consoleSettingsWarnings, type SettingsWarningLogger, warnUnknownOptionKeys } from './unknown-settings.js';

const RESOLVED = Symbol('sessauth.resolvedOptions');

/** True for an object returned by `resolveOptions` (not for a copy or a look-alike). */
export function isResolvedOptions(value: unknown): value is ResolvedOptions {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RESOLVED] === true;
}

/**
 * Applies every default of `SessauthOptions` and validates everything once, at start-up:
 * each setting by its row of the settings table, then the rules that tie settings together.
 * Throws a `SettingsError` whose `setting` is the `JWT_*` name and `key` the option key.
 * Each unknown key is warned about through `logger` (console.warn by default). The result is frozen.
 */
export function resolveOptions(
  options: SessauthOptions,
  { logger = consoleSettingsWarnings }: { logger?: SettingsWarningLogger } = {},
): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new SettingsError('options', 'must be an object');
  warnUnknownOptionKeys(options, logger);
  const given = options as unknown as Readonly<Record<string, unknown>>;
  const r: Record<string, unknown> = {};
  for (const [key, row] of Object.entries(SETTINGS) as [SettingKey, SettingRow][]) {
    r[key] = row.kind.resolve(given[key], { resolved: r as Partial<ResolvedOptions>, fail: (problem) => fail(key, problem) });
  }
  // The table checked each value alone; what follows ties several together.
  const o = r as unknown as SessauthOptions & { securityStampKey: string | undefined };
  checkKeys(o);
  checkLifetimes(o);
  checkCookies(o);
  // A session in use is touched at most once per interval, so its recorded activity lags by up
  // to one interval: at most half the idle timeout keeps a used session from looking idle.
  const { activityUpdateIntervalSeconds: interval = 0, sessionIdleSeconds: idle = 0 } = o;
  if (idle > 0 && interval * 2 > idle) {
    fail(
      'sessionIdleSeconds',
      `must be 0 (off) or at least twice JWT_ACTIVITY_UPDATE_INTERVAL_SECONDS (${interval}), ${show(idle)}; lower JWT_ACTIVITY_UPDATE_INTERVAL_SECONDS or raise JWT_SESSION_IDLE_SECONDS`,
    );
  }
  // The signals read and write the activity history: without it they would have no memory.
  if (o.riskSignals === true && o.sessionActivity !== true) fail('riskSignals', 'needs JWT_SESSION_ACTIVITY=true');
  checkTransmitter(o);
  const resolved = {
    ...r,
    securityStampKey: o.securityStampKey ?? o.secretKey,
    loginThrottle: parseRate(r.loginThrottleRate as string, SETTING_NAMES.loginThrottleRate, 'loginThrottleRate'),
    refreshThrottle: parseRate(r.refreshThrottleRate as string, SETTING_NAMES.refreshThrottleRate, 'refreshThrottleRate'),
    loginAccountThrottle: parseRate(r.loginAccountThrottleRate as string, SETTING_NAMES.loginAccountThrottleRate, 'loginAccountThrottleRate'),
    loginNetworkThrottle: parseRate(r.loginNetworkThrottleRate as string, SETTING_NAMES.loginNetworkThrottleRate, 'loginNetworkThrottleRate'),
  } as unknown as ResolvedOptions;
  Object.defineProperty(resolved, RESOLVED, { value: true, enumerable: false });
  return Object.freeze(resolved);
}

function fail(key: SettingKey, problem: string): never {
  throw new SettingsError(SETTING_NAMES[key], problem, key);
}

function checkKeys(o: SessauthOptions & { securityStampKey: string | undefined }): void {
  const algorithm = o.algorithm ?? 'HS256';
  checkSigningKey(algorithm, o.secretKey, o.verifyingKey);
  const previousSecretKeys = o.previousSecretKeys ?? [];
  const previousVerifyingKeys = o.previousVerifyingKeys ?? [];
  checkPreviousKeys(algorithm, { secretKey: o.secretKey, verifyingKey: o.verifyingKey }, previousSecretKeys, previousVerifyingKeys);
  if (o.securityStampKey !== undefined) checkSecurityStampKey(o.securityStampKey);
  // Sessions keep an HMAC of the security stamp keyed by this; if it followed a rotated
  // JWT_SECRET_KEY, every session would look like a password change and end.
  if (o.securityStampKey === undefined && previousSecretKeys.length + previousVerifyingKeys.length > 0) {
    fail(
      'securityStampKey',
      'is required when previous keys are configured: set it to the JWT_SECRET_KEY your sessions were created under (the key you are rotating away from), and keep it',
    );
  }
}

function checkLifetimes(o: SessauthOptions): void {
  const refresh = o.refreshTokenExpireSeconds ?? 0;
  if ((o.sessionExpireSeconds ?? 0) > refresh) {
    fail('sessionExpireSeconds', `must be 0 (never) or not exceed JWT_REFRESH_TOKEN_EXPIRE_SECONDS (${refresh})`);
  }
  // "remember": false at login. Never longer than a remembered session.
  const longest = longestSession(o);
  const short = o.shortSessionExpireSeconds ?? 0;
  if (short > longest) {
    const limit = o.sessionExpireSeconds === 0 ? 'JWT_REFRESH_TOKEN_EXPIRE_SECONDS' : 'JWT_SESSION_EXPIRE_SECONDS';
    fail('shortSessionExpireSeconds', `must not exceed ${limit} (${longest}), ${show(short)}`);
  }
  if (o.refreshTokenReuseGraceSeconds !== 0) fail('refreshTokenReuseGraceSeconds', 'must be 0: a reused refresh token always revokes the session');
}

/**
 * `o` holds the table's resolved values (defaults filled in, `accessCookieSecure` already
 * following `refreshCookieSecure`), so names and flags are compared as the cookies will be
 * set; the `??` below only satisfy the optional option types.
 */
function checkCookies(o: SessauthOptions): void {
  if (o.refreshCookieSameSite === 'None' && !(o.refreshCookieSecure && o.refreshCookieHttpOnly)) {
    fail('refreshCookieSameSite', 'None requires JWT_REFRESH_COOKIE_SECURE and JWT_REFRESH_COOKIE_HTTPONLY to be true');
  }
  if (o.csrfCookieName === o.refreshCookieName) fail('csrfCookieName', 'must differ from JWT_REFRESH_COOKIE_NAME');
  checkCookiePrefix('refreshCookieName', o.refreshCookieName ?? '', {
    secure: o.refreshCookieSecure ?? true,
    path: o.refreshCookiePath ?? '',
    domain: o.refreshCookieDomain,
  });
  if (o.accessTokenCookie === true) {
    // The cookie is safe only beside the CSRF check, which exists in the cookie transports.
    if ((o.refreshTokenTransport ?? 'body') === 'body') {
      fail(
        'accessTokenCookie',
        'needs JWT_REFRESH_TOKEN_TRANSPORT=cookie or both: unsafe methods it authenticates need the CSRF check of those transports',
      );
    }
    if (o.accessCookieName === o.refreshCookieName || o.accessCookieName === o.csrfCookieName) {
      fail('accessCookieName', 'must differ from JWT_REFRESH_COOKIE_NAME and JWT_CSRF_COOKIE_NAME');
    }
    checkCookiePrefix('accessCookieName', o.accessCookieName ?? '', { secure: o.accessCookieSecure ?? true, path: '/', domain: undefined });
  }
  // DBSC binds cookies: a host whose refresh token travels in the body has none to bind.
  if (o.deviceBoundCookies === true && (o.refreshTokenTransport ?? 'body') === 'body') {
    fail('deviceBoundCookies', 'needs JWT_REFRESH_TOKEN_TRANSPORT=cookie or both: it binds the refresh cookie; token clients use JWT_DPOP');
  }
  // The CSRF cookie is always host-only on Path /.
  checkCookiePrefix('csrfCookieName', o.csrfCookieName ?? '', { secure: o.csrfCookieSecure ?? true, path: '/', domain: undefined });
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

/**
 * The Shared Signals transmitter signs SETs that other services verify with our public key:
 * an HMAC secret cannot be published, so an HS* algorithm is refused (not silently ignored).
 */
function checkTransmitter(o: SessauthOptions): void {
  if (o.ssfTransmitter !== true) return;
  if (o.algorithm === undefined || o.algorithm.startsWith('HS')) {
    fail(
      'ssfTransmitter',
      `needs an asymmetric JWT_ALGORITHM (RS*, PS*, ES*, EdDSA) with JWT_SECRET_KEY a PEM private key and JWT_VERIFYING_KEY its public key: receivers verify each SET against the published JWK set, and an HMAC secret cannot be published (got ${o.algorithm ?? 'HS256'})`,
    );
  }
  if (o.ssfIssuer === undefined) fail('ssfIssuer', 'is required with JWT_SSF_TRANSMITTER (the public base URL, e.g. https://auth.example.com)');
  if ((o.ssfRetryMaxMilliseconds ?? 0) < (o.ssfRetryBaseMilliseconds ?? 0))
    fail('ssfRetryMaxMilliseconds', 'must be at least JWT_SSF_RETRY_BASE_MILLISECONDS');
}
