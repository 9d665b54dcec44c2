import { describe, expect, it } from 'vitest';
import { SettingsError } from '../src/errors/sessauth-error.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { settingsFromEnv } from '../src/options/settings-from-env.js';

const SECRET = 'an-hmac-secret-of-exactly-32-by!';
const required = { JWT_SECRET_KEY: SECRET, JWT_ISSUER: 'https://issuer.test', JWT_AUDIENCE: 'sessauth-test' };

function settingOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof SettingsError) return error.setting;
    throw error;
  }
  throw new Error('no SettingsError was thrown');
}

describe('settingsFromEnv', () => {
  it('reads every JWT_* setting with its type', () => {
    const options = settingsFromEnv({
      ...required,
      JWT_ALGORITHM: 'HS512',
      JWT_ACCESS_TOKEN_EXPIRE_SECONDS: '600',
      JWT_REFRESH_TOKEN_EXPIRE_SECONDS: '86400',
      JWT_SESSION_EXPIRE_SECONDS: '43200',
      JWT_LEEWAY_SECONDS: '5',
      JWT_MAX_ACTIVE_SESSIONS: '3',
      JWT_REFRESH_TOKEN_REUSE_GRACE_SECONDS: '0',
      JWT_REFRESH_TOKEN_TRANSPORT: 'cookie',
      JWT_REFRESH_COOKIE_NAME: 'rt',
      JWT_REFRESH_COOKIE_PATH: '/x/refresh/',
      JWT_REFRESH_COOKIE_DOMAIN: 'example.com',
      JWT_REFRESH_COOKIE_SECURE: 'true',
      JWT_REFRESH_COOKIE_HTTPONLY: '1',
      JWT_REFRESH_COOKIE_SAMESITE: 'Strict',
      JWT_CSRF_COOKIE_NAME: 'csrf',
      JWT_CSRF_COOKIE_SECURE: 'FALSE',
      JWT_CSRF_TRUSTED_ORIGINS: 'https://a.example,https://b.example',
      JWT_LOGIN_THROTTLE_RATE: '10/min',
      JWT_REFRESH_THROTTLE_RATE: '0',
      JWT_THROTTLE_IPV6_PREFIX: '56',
      JWT_TRUSTED_PROXY_CIDRS: '10.0.0.0/8',
      JWT_PERSIST_CLIENT_IP: '0',
      JWT_MAX_USERNAME_LENGTH: '100',
      JWT_MAX_PASSWORD_LENGTH: '200',
      JWT_MAX_TOKEN_LENGTH: '4096',
      JWT_MAX_FORWARDED_HEADER_LENGTH: '512',
      JWT_MAX_FORWARDED_HOPS: '4',
      JWT_MAX_BODY_BYTES: '8192',
      JWT_GEOLOCATION_TIMEOUT_MS: '900',
      JWT_ACTIVITY_UPDATE_INTERVAL_SECONDS: '30',
      JWT_AUTH_PREFIX: '/api/auth',
      JWT_ADMIN_PREFIX: '/ops/sessions',
    });
    expect(options).toEqual({
      secretKey: SECRET,
      issuer: 'https://issuer.test',
      audience: 'sessauth-test',
      algorithm: 'HS512',
      accessTokenExpireSeconds: 600,
      refreshTokenExpireSeconds: 86_400,
      sessionExpireSeconds: 43_200,
      leewaySeconds: 5,
      maxActiveSessions: 3,
      refreshTokenReuseGraceSeconds: 0,
      refreshTokenTransport: 'cookie',
      refreshCookieName: 'rt',
      refreshCookiePath: '/x/refresh/',
      refreshCookieDomain: 'example.com',
      refreshCookieSecure: true,
      refreshCookieHttpOnly: true,
      refreshCookieSameSite: 'Strict',
      csrfCookieName: 'csrf',
      csrfCookieSecure: false,
      csrfTrustedOrigins: ['https://a.example', 'https://b.example'],
      loginThrottleRate: '10/min',
      refreshThrottleRate: '0',
      throttleIpv6Prefix: 56,
      trustedProxyCidrs: ['10.0.0.0/8'],
      persistClientIp: false,
      maxUsernameLength: 100,
      maxPasswordLength: 200,
      maxTokenLength: 4096,
      maxForwardedHeaderLength: 512,
      maxForwardedHops: 4,
      maxBodyBytes: 8192,
      geolocationTimeoutMs: 900,
      activityUpdateIntervalSeconds: 30,
      prefix: '/api/auth',
      adminPrefix: '/ops/sessions',
    });
  });

  it('leaves unset and blank settings undefined, so the defaults apply', () => {
    const options = settingsFromEnv({ ...required, JWT_LEEWAY_SECONDS: '', JWT_AUTH_PREFIX: '   ', UNRELATED: 'x' });
    expect(Object.keys(options).sort()).toEqual(['audience', 'issuer', 'secretKey']);
    const resolved = resolveOptions(options);
    expect(resolved.leewaySeconds).toBe(0);
    expect(resolved.prefix).toBe('/auth');
  });

  it.each(['JWT_SECRET_KEY', 'JWT_ISSUER', 'JWT_AUDIENCE'])('treats a blank %s exactly like a missing one', (name) => {
    const blank = () => resolveOptions(settingsFromEnv({ ...required, [name]: ' \t' }));
    const missing = () => resolveOptions(settingsFromEnv({ ...required, [name]: undefined }));
    expect(settingOf(blank)).toBe(name);
    expect(settingOf(missing)).toBe(name);
    expect(() => blank()).toThrow(/is required$/);
    expect(() => missing()).toThrow(/is required$/);
  });

  it.each([
    ['TRUE', true],
    ['True', true],
    ['1', true],
    ['false', false],
    ['FaLsE', false],
    ['0', false],
    [' true ', true],
  ])('reads the boolean %j', (value, expected) => {
    expect(settingsFromEnv({ JWT_PERSIST_CLIENT_IP: value }).persistClientIp).toBe(expected);
  });

  it('reads JWT_COALESCE_SESSION_READS (on unless turned off)', () => {
    expect(settingsFromEnv({ JWT_COALESCE_SESSION_READS: 'false' }).coalesceSessionReads).toBe(false);
    expect(settingsFromEnv({ JWT_COALESCE_SESSION_READS: 'true' }).coalesceSessionReads).toBe(true);
    expect(settingOf(() => settingsFromEnv({ JWT_COALESCE_SESSION_READS: 'off' }))).toBe('JWT_COALESCE_SESSION_READS');
  });

  it.each(['yes', 'no', 'on', '2', 't'])('rejects the boolean %j naming the setting', (value) => {
    expect(settingOf(() => settingsFromEnv({ JWT_REFRESH_COOKIE_SECURE: value }))).toBe('JWT_REFRESH_COOKIE_SECURE');
  });

  it.each([
    ['300', 300],
    [' 300 ', 300],
    ['+5', 5],
    ['-1', -1],
    ['0', 0],
  ])('reads the integer %j', (value, expected) => {
    expect(settingsFromEnv({ JWT_MAX_ACTIVE_SESSIONS: value }).maxActiveSessions).toBe(expected);
  });

  it.each(['3.5', '1e3', '0x10', 'abc', '5 min', '1_000'])('rejects the number %j naming the setting', (value) => {
    expect(settingOf(() => settingsFromEnv({ JWT_ACCESS_TOKEN_EXPIRE_SECONDS: value }))).toBe('JWT_ACCESS_TOKEN_EXPIRE_SECONDS');
  });

  it('splits lists on commas, trims items and drops empty ones', () => {
    const options = settingsFromEnv({ JWT_TRUSTED_PROXY_CIDRS: ' 10.0.0.0/8, ,::1/128 ,', JWT_CSRF_TRUSTED_ORIGINS: ',' });
    expect(options.trustedProxyCidrs).toEqual(['10.0.0.0/8', '::1/128']);
    expect(options.csrfTrustedOrigins).toEqual([]);
  });

  it('normalises the case of SameSite and the transport, and leaves bad values for resolveOptions', () => {
    expect(settingsFromEnv({ JWT_REFRESH_COOKIE_SAMESITE: 'none', JWT_REFRESH_TOKEN_TRANSPORT: 'BOTH' })).toEqual({
      refreshCookieSameSite: 'None',
      refreshTokenTransport: 'both',
    });
    const bad = settingsFromEnv({ ...required, JWT_REFRESH_COOKIE_SAMESITE: 'sometimes' });
    expect(settingOf(() => resolveOptions(bad))).toBe('JWT_REFRESH_COOKIE_SAMESITE');
  });

  it('keeps the secret byte for byte and turns literal \\n in a PEM into line breaks', () => {
    expect(settingsFromEnv({ JWT_SECRET_KEY: `  ${SECRET}\\n ` }).secretKey).toBe(`  ${SECRET}\\n `);
    const pem = settingsFromEnv({ JWT_VERIFYING_KEY: '-----BEGIN PUBLIC KEY-----\\nAAAA\\n-----END PUBLIC KEY-----' });
    expect(pem.verifyingKey).toBe('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----');
  });

  it('feeds resolveOptions, which names the offending setting', () => {
    expect(settingOf(() => resolveOptions(settingsFromEnv({ ...required, JWT_REFRESH_TOKEN_REUSE_GRACE_SECONDS: '5' })))).toBe(
      'JWT_REFRESH_TOKEN_REUSE_GRACE_SECONDS',
    );
    expect(settingOf(() => resolveOptions(settingsFromEnv({ ...required, JWT_TRUSTED_PROXY_CIDRS: '10.0.0.0/8,127.1' })))).toBe(
      'JWT_TRUSTED_PROXY_CIDRS',
    );
    expect(settingOf(() => resolveOptions(settingsFromEnv({ ...required, JWT_ALGORITHM: 'none' })))).toBe('JWT_ALGORITHM');
    const resolved = resolveOptions(settingsFromEnv({ ...required, JWT_LOGIN_THROTTLE_RATE: '0', JWT_PERSIST_CLIENT_IP: 'false' }));
    expect(resolved.loginThrottle).toBeNull();
    expect(resolved.persistClientIp).toBe(false);
  });
});
