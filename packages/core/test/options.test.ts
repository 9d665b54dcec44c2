import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { SettingsError } from '../src/errors/sessauth-error.js';
import type { SessauthOptions } from '../src/options/options.js';
import { isResolvedOptions, resolveOptions } from '../src/options/resolve-options.js';
import { SETTING_NAMES } from '../src/options/setting-names.js';
import { pemPair, type PemPair } from './helpers/pem-keys.js';

const SECRET = 'an-hmac-secret-of-exactly-32-by!';
const base: SessauthOptions = { secretKey: SECRET, issuer: 'https://issuer.test', audience: 'sessauth-test' };

function settingErrorOf(options: Record<string, unknown>): SettingsError {
  try {
    resolveOptions(options as unknown as SessauthOptions);
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('resolveOptions accepted the options');
}

describe('resolveOptions: defaults', () => {
  it('applies every documented default', () => {
    const resolved = resolveOptions(base);
    expect(resolved).toMatchObject({
      algorithm: 'HS256',
      verifyingKey: undefined,
      accessTokenExpireSeconds: 300,
      refreshTokenExpireSeconds: 1_209_600,
      sessionExpireSeconds: 1_209_600,
      leewaySeconds: 0,
      maxActiveSessions: 20,
      refreshTokenReuseGraceSeconds: 0,
      refreshTokenTransport: 'body',
      refreshCookieName: 'refresh_token',
      refreshCookiePath: '/auth/refresh/',
      refreshCookieDomain: undefined,
      refreshCookieSecure: true,
      refreshCookieHttpOnly: true,
      refreshCookieSameSite: 'Lax',
      csrfCookieName: 'csrftoken',
      csrfCookieSecure: true,
      csrfTrustedOrigins: [],
      loginThrottleRate: '5/min',
      refreshThrottleRate: '30/min',
      loginThrottle: { limit: 5, windowSec: 60 },
      refreshThrottle: { limit: 30, windowSec: 60 },
      throttleIpv6Prefix: 64,
      trustedProxyCidrs: [],
      persistClientIp: true,
      maxUsernameLength: 254,
      maxPasswordLength: 1024,
      maxTokenLength: 8192,
      maxForwardedHeaderLength: 2048,
      maxForwardedHops: 10,
      maxBodyBytes: 16_384,
      geolocationTimeoutMs: 1500,
      storeBudgetMs: 5000,
      coalesceSessionReads: true,
      activityUpdateIntervalSeconds: 60,
      prefix: '/auth',
      adminPrefix: '/admin/sessauth/session',
      customClaims: undefined,
    });
  });

  it('derives the cookie path from the prefix and the CSRF Secure flag from the refresh one', () => {
    const resolved = resolveOptions({ ...base, prefix: '/api/auth', refreshCookieSecure: false });
    expect(resolved.refreshCookiePath).toBe('/api/auth/refresh/');
    expect(resolved.csrfCookieSecure).toBe(false);
    expect(resolveOptions({ ...base, refreshCookieSecure: false, csrfCookieSecure: true }).csrfCookieSecure).toBe(true);
  });

  it('disables a throttle with "0"', () => {
    const resolved = resolveOptions({ ...base, loginThrottleRate: '0', refreshThrottleRate: '100/hour' });
    expect(resolved.loginThrottle).toBeNull();
    expect(resolved.refreshThrottle).toEqual({ limit: 100, windowSec: 3600 });
  });

  it('returns a frozen, branded object; copies are not branded', () => {
    const resolved = resolveOptions({ ...base, trustedProxyCidrs: ['10.0.0.0/8'] });
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(Object.isFrozen(resolved.trustedProxyCidrs)).toBe(true);
    expect(isResolvedOptions(resolved)).toBe(true);
    expect(isResolvedOptions({ ...resolved })).toBe(false);
    expect(isResolvedOptions(base)).toBe(false);
    expect(isResolvedOptions(null)).toBe(false);
    expect(Object.keys(resolved)).not.toContain('RESOLVED');
  });

  it('accepts valid non-default values', () => {
    const resolved = resolveOptions({
      ...base,
      refreshCookieSameSite: 'None',
      refreshCookieDomain: '.example.com',
      refreshTokenTransport: 'both',
      csrfTrustedOrigins: ['https://app.example.com', 'http://localhost:5173'],
      trustedProxyCidrs: ['10.0.0.0/8', '192.168.1.1', '::1/128', '2001:db8::/32', '::ffff:10.0.0.0/104'],
      secretKey: `${'é'.repeat(15)}ab`,
      sessionExpireSeconds: 3600,
      activityUpdateIntervalSeconds: 0,
    });
    expect(resolved.refreshCookieSameSite).toBe('None');
    expect(resolved.trustedProxyCidrs).toHaveLength(5);
  });
});

describe('resolveOptions: each validation names its setting', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['missing secret', { secretKey: undefined }, 'JWT_SECRET_KEY'],
    ['blank secret', { secretKey: '  \t ' }, 'JWT_SECRET_KEY'],
    ['non-string secret', { secretKey: 42 }, 'JWT_SECRET_KEY'],
    ['HS256 secret of 31 bytes', { secretKey: 'x'.repeat(31) }, 'JWT_SECRET_KEY'],
    ['HS256 secret of 31 UTF-8 bytes (16 characters)', { secretKey: `${'é'.repeat(15)}a` }, 'JWT_SECRET_KEY'],
    ['HS384 secret of 47 bytes', { algorithm: 'HS384', secretKey: 'x'.repeat(47) }, 'JWT_SECRET_KEY'],
    ['HS512 secret of 63 bytes', { algorithm: 'HS512', secretKey: 'x'.repeat(63) }, 'JWT_SECRET_KEY'],
    ['a PEM as HMAC secret', { secretKey: `-----BEGIN PUBLIC KEY-----\n${'A'.repeat(64)}\n-----END PUBLIC KEY-----` }, 'JWT_SECRET_KEY'],
    ['a verifying key with HMAC', { verifyingKey: '-----BEGIN PUBLIC KEY-----' }, 'JWT_VERIFYING_KEY'],
    ['missing issuer', { issuer: undefined }, 'JWT_ISSUER'],
    ['blank issuer', { issuer: ' ' }, 'JWT_ISSUER'],
    ['blank audience', { audience: '' }, 'JWT_AUDIENCE'],
    ['alg none', { algorithm: 'none' }, 'JWT_ALGORITHM'],
    ['alg None', { algorithm: 'None' }, 'JWT_ALGORITHM'],
    ['unsupported alg', { algorithm: 'HS1' }, 'JWT_ALGORITHM'],
    ['lower-case alg', { algorithm: 'hs256' }, 'JWT_ALGORITHM'],
    ['reuse grace 1', { refreshTokenReuseGraceSeconds: 1 }, 'JWT_REFRESH_TOKEN_REUSE_GRACE_SECONDS'],
    ['reuse grace -1', { refreshTokenReuseGraceSeconds: -1 }, 'JWT_REFRESH_TOKEN_REUSE_GRACE_SECONDS'],
    ['SameSite=None without Secure', { refreshCookieSameSite: 'None', refreshCookieSecure: false }, 'JWT_REFRESH_COOKIE_SAMESITE'],
    ['SameSite=None without HttpOnly', { refreshCookieSameSite: 'None', refreshCookieHttpOnly: false }, 'JWT_REFRESH_COOKIE_SAMESITE'],
    ['SameSite in lower case', { refreshCookieSameSite: 'lax' }, 'JWT_REFRESH_COOKIE_SAMESITE'],
    ['bad login rate', { loginThrottleRate: 'five/min' }, 'JWT_LOGIN_THROTTLE_RATE'],
    ['bad refresh rate', { refreshThrottleRate: '10/fortnight' }, 'JWT_REFRESH_THROTTLE_RATE'],
    ['inet_aton short IPv4', { trustedProxyCidrs: ['127.1/32'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['inet_aton hex IPv4', { trustedProxyCidrs: ['0x7f.0.0.1/32'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['inet_aton octal IPv4', { trustedProxyCidrs: ['010.0.0.0/8'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['inet_aton integer IPv4', { trustedProxyCidrs: ['2130706433'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['IPv6 zone id', { trustedProxyCidrs: ['fe80::1%eth0/64'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['IPv4 prefix 33', { trustedProxyCidrs: ['10.0.0.0/33'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['a CIDR that is garbage', { trustedProxyCidrs: ['10.0.0.0/8', 'proxy.local'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['CIDRs not an array', { trustedProxyCidrs: '10.0.0.0/8' }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['access lifetime 0', { accessTokenExpireSeconds: 0 }, 'JWT_ACCESS_TOKEN_EXPIRE_SECONDS'],
    ['access lifetime 1.5', { accessTokenExpireSeconds: 1.5 }, 'JWT_ACCESS_TOKEN_EXPIRE_SECONDS'],
    ['access lifetime as a string', { accessTokenExpireSeconds: '300' }, 'JWT_ACCESS_TOKEN_EXPIRE_SECONDS'],
    ['access lifetime NaN', { accessTokenExpireSeconds: Number.NaN }, 'JWT_ACCESS_TOKEN_EXPIRE_SECONDS'],
    ['refresh lifetime Infinity', { refreshTokenExpireSeconds: Infinity }, 'JWT_REFRESH_TOKEN_EXPIRE_SECONDS'],
    ['session longer than refresh', { refreshTokenExpireSeconds: 3600, sessionExpireSeconds: 3601 }, 'JWT_SESSION_EXPIRE_SECONDS'],
    ['negative leeway', { leewaySeconds: -1 }, 'JWT_LEEWAY_SECONDS'],
    ['0 active sessions', { maxActiveSessions: 0 }, 'JWT_MAX_ACTIVE_SESSIONS'],
    ['1001 active sessions', { maxActiveSessions: 1001 }, 'JWT_MAX_ACTIVE_SESSIONS'],
    ['0 hops', { maxForwardedHops: 0 }, 'JWT_MAX_FORWARDED_HOPS'],
    ['65 hops', { maxForwardedHops: 65 }, 'JWT_MAX_FORWARDED_HOPS'],
    ['IPv6 prefix 129', { throttleIpv6Prefix: 129 }, 'JWT_THROTTLE_IPV6_PREFIX'],
    ['token length 100', { maxTokenLength: 100 }, 'JWT_MAX_TOKEN_LENGTH'],
    ['body bytes 0', { maxBodyBytes: 0 }, 'JWT_MAX_BODY_BYTES'],
    ['username length 0', { maxUsernameLength: 0 }, 'JWT_MAX_USERNAME_LENGTH'],
    ['password length 0', { maxPasswordLength: 0 }, 'JWT_MAX_PASSWORD_LENGTH'],
    ['header length 0', { maxForwardedHeaderLength: 0 }, 'JWT_MAX_FORWARDED_HEADER_LENGTH'],
    ['geolocation timeout 0', { geolocationTimeoutMs: 0 }, 'JWT_GEOLOCATION_TIMEOUT_MS'],
    ['negative activity interval', { activityUpdateIntervalSeconds: -1 }, 'JWT_ACTIVITY_UPDATE_INTERVAL_SECONDS'],
    ['prefix without a leading slash', { prefix: 'auth' }, 'JWT_AUTH_PREFIX'],
    ['prefix with a trailing slash', { prefix: '/auth/' }, 'JWT_AUTH_PREFIX'],
    ['prefix "/"', { prefix: '/' }, 'JWT_AUTH_PREFIX'],
    ['empty prefix', { prefix: '' }, 'JWT_AUTH_PREFIX'],
    ['admin prefix with a trailing slash', { adminPrefix: '/admin/' }, 'JWT_ADMIN_PREFIX'],
    ['transport in upper case', { refreshTokenTransport: 'BODY' }, 'JWT_REFRESH_TOKEN_TRANSPORT'],
    ['unknown transport', { refreshTokenTransport: 'header' }, 'JWT_REFRESH_TOKEN_TRANSPORT'],
    ['cookie name with a space', { refreshCookieName: 'refresh token' }, 'JWT_REFRESH_COOKIE_NAME'],
    ['CSRF cookie named like the refresh cookie', { csrfCookieName: 'refresh_token' }, 'JWT_CSRF_COOKIE_NAME'],
    ['cookie path without a slash', { refreshCookiePath: 'refresh' }, 'JWT_REFRESH_COOKIE_PATH'],
    ['cookie path with ";"', { refreshCookiePath: '/a;b' }, 'JWT_REFRESH_COOKIE_PATH'],
    ['cookie domain with a space', { refreshCookieDomain: 'exa mple.com' }, 'JWT_REFRESH_COOKIE_DOMAIN'],
    ['boolean as a string', { persistClientIp: 'true' }, 'JWT_PERSIST_CLIENT_IP'],
    ['CSRF Secure as a number', { csrfCookieSecure: 1 }, 'JWT_CSRF_COOKIE_SECURE'],
    ['origin with a trailing slash', { csrfTrustedOrigins: ['https://a.example/'] }, 'JWT_CSRF_TRUSTED_ORIGINS'],
    ['origin with a path', { csrfTrustedOrigins: ['https://a.example/app'] }, 'JWT_CSRF_TRUSTED_ORIGINS'],
    ['origin without a scheme', { csrfTrustedOrigins: ['a.example'] }, 'JWT_CSRF_TRUSTED_ORIGINS'],
    ['ftp origin', { csrfTrustedOrigins: ['ftp://a.example'] }, 'JWT_CSRF_TRUSTED_ORIGINS'],
    ['customClaims not a function', { customClaims: { role: 'x' } }, 'customClaims'],
  ])('%s', (_, overrides, setting) => {
    const error = settingErrorOf({ ...base, ...overrides });
    const key = Object.entries(SETTING_NAMES).find(([, name]) => name === setting)?.[0];
    expect(error.setting).toBe(setting);
    expect(error.key).toBe(key);
    // Both names, so a code user and a .env user each find the one they wrote.
    expect(error.message.startsWith(key === setting ? `${setting}: ` : `${key} / ${setting}: `)).toBe(true);
  });

  it('never quotes the secret in its message', () => {
    const secret = 'short-but-secret';
    expect(settingErrorOf({ ...base, secretKey: secret }).message).not.toContain(secret);
  });

  it.each([
    ['HS256', 31],
    ['HS512', 63],
  ] as const)('a too-short %s secret says how to make one, and the command it gives makes a secret that passes', (algorithm, length) => {
    const message = settingErrorOf({ ...base, algorithm, secretKey: 'x'.repeat(length) }).message;
    const command = /make one with: node -e "(.+)"$/.exec(message)?.[1];
    expect(command, message).toBeDefined();
    const made = execFileSync(process.execPath, ['-e', command!], { encoding: 'utf8' }).trim();
    expect(resolveOptions({ ...base, algorithm, secretKey: made }).algorithm).toBe(algorithm);
  });

  it('accepts HMAC secrets at exactly 32/48/64 bytes', () => {
    expect(resolveOptions({ ...base, secretKey: 'x'.repeat(32) }).algorithm).toBe('HS256');
    expect(resolveOptions({ ...base, algorithm: 'HS384', secretKey: 'x'.repeat(48) }).algorithm).toBe('HS384');
    expect(resolveOptions({ ...base, algorithm: 'HS512', secretKey: 'x'.repeat(64) }).algorithm).toBe('HS512');
  });
});

describe('resolveOptions: asymmetric keys', () => {
  const keys = {} as Record<'rsa' | 'rsa2' | 'rsa1024' | 'p256' | 'p384' | 'p521' | 'ed', PemPair>;
  beforeAll(async () => {
    [keys.rsa, keys.rsa2, keys.rsa1024, keys.p256, keys.p384, keys.p521, keys.ed] = await Promise.all([
      pemPair('rsa2048'),
      pemPair('rsa2048'),
      pemPair('rsa1024'),
      pemPair('p256'),
      pemPair('p384'),
      pemPair('p521'),
      pemPair('ed25519'),
    ]);
  }, 60_000);
  // `null`: no verifying key at all.
  const asym = (algorithm: string, pair: PemPair, verifyingKey: string | null = pair.publicKey) => ({
    ...base,
    algorithm,
    secretKey: pair.privateKey,
    verifyingKey: verifyingKey ?? undefined,
  });

  it.each([
    ['RS256', 'rsa'],
    ['RS512', 'rsa'],
    ['PS256', 'rsa'],
    ['ES256', 'p256'],
    ['ES384', 'p384'],
    ['ES512', 'p521'],
    ['EdDSA', 'ed'],
  ] as const)('accepts a matching %s pair', (algorithm, key) => {
    expect(resolveOptions(asym(algorithm, keys[key]) as SessauthOptions).algorithm).toBe(algorithm);
  });

  it.each<[string, () => Record<string, unknown>, string]>([
    ['no verifying key', () => asym('RS256', keys.rsa, null), 'JWT_VERIFYING_KEY'],
    ['a verifying key of another pair', () => asym('RS256', keys.rsa, keys.rsa2.publicKey), 'JWT_VERIFYING_KEY'],
    ['a mismatched Ed25519 key', () => asym('EdDSA', keys.ed, keys.rsa.publicKey), 'JWT_VERIFYING_KEY'],
    ['the private key as verifying key', () => asym('RS256', keys.rsa, keys.rsa.privateKey), 'JWT_VERIFYING_KEY'],
    ['a 1024-bit RSA key', () => asym('RS256', keys.rsa1024), 'JWT_SECRET_KEY'],
    ['a 1024-bit PS key', () => asym('PS256', keys.rsa1024), 'JWT_SECRET_KEY'],
    ['ES256 with a P-384 key', () => asym('ES256', keys.p384), 'JWT_SECRET_KEY'],
    ['ES512 with a P-256 key', () => asym('ES512', keys.p256), 'JWT_SECRET_KEY'],
    ['EdDSA with an EC key', () => asym('EdDSA', keys.p256), 'JWT_SECRET_KEY'],
    ['RS256 with an EC key', () => asym('RS256', keys.p256), 'JWT_SECRET_KEY'],
    [
      'a PKCS#1 label',
      () => asym('RS256', { ...keys.rsa, privateKey: keys.rsa.privateKey.replaceAll('PRIVATE KEY', 'RSA PRIVATE KEY') }),
      'JWT_SECRET_KEY',
    ],
    [
      'a corrupt private key',
      () => asym('RS256', { ...keys.rsa, privateKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }),
      'JWT_SECRET_KEY',
    ],
    ['an HMAC secret under RS256', () => ({ ...base, algorithm: 'RS256' }), 'JWT_SECRET_KEY'],
  ])('rejects %s', (_, make, setting) => {
    const error = settingErrorOf(make());
    expect(error.setting).toBe(setting);
    expect(error.message).toMatch(setting === 'JWT_SECRET_KEY' ? /^secretKey \/ JWT_SECRET_KEY: / : /^verifyingKey \/ JWT_VERIFYING_KEY: /);
  });
});
