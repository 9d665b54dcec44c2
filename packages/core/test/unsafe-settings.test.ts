import { describe, expect, it } from 'vitest';
import { SettingsError } from '../src/errors/sessauth-error.js';
import type { SessauthOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';

const base: SessauthOptions = { secretKey: 'an-hmac-secret-of-exactly-32-by!', issuer: 'https://issuer.test', audience: 'sessauth-test' };

function refusal(overrides: Record<string, unknown>): SettingsError {
  try {
    resolveOptions({ ...base, ...overrides } as SessauthOptions);
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('resolveOptions accepted the options');
}

const JWK = JSON.stringify({ kty: 'oct', k: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA' });
const SSH = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@host';

describe('unsafe settings are refused at start-up, naming the setting', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['a __Host- refresh cookie on the default path', { refreshCookieName: '__Host-refresh' }, 'JWT_REFRESH_COOKIE_NAME'],
    [
      'a __Host- refresh cookie with a Domain',
      { refreshCookieName: '__Host-refresh', refreshCookiePath: '/', refreshCookieDomain: 'example.com' },
      'JWT_REFRESH_COOKIE_NAME',
    ],
    [
      'a __Host- refresh cookie without Secure',
      { refreshCookieName: '__Host-refresh', refreshCookiePath: '/', refreshCookieSecure: false },
      'JWT_REFRESH_COOKIE_NAME',
    ],
    ['a __Secure- refresh cookie without Secure', { refreshCookieName: '__Secure-refresh', refreshCookieSecure: false }, 'JWT_REFRESH_COOKIE_NAME'],
    ['a __host- prefix in another case', { refreshCookieName: '__HOST-refresh' }, 'JWT_REFRESH_COOKIE_NAME'],
    ['a __Host- CSRF cookie without Secure', { csrfCookieName: '__Host-csrftoken', csrfCookieSecure: false }, 'JWT_CSRF_COOKIE_NAME'],
    ['a __Secure- CSRF cookie without Secure', { csrfCookieName: '__Secure-csrftoken', csrfCookieSecure: false }, 'JWT_CSRF_COOKIE_NAME'],
    ['a JWK as the HMAC secret', { secretKey: JWK }, 'JWT_SECRET_KEY'],
    ['a JWK set as the HMAC secret', { secretKey: JSON.stringify({ keys: [{ kty: 'RSA', n: 'x'.repeat(40), e: 'AQAB' }] }) }, 'JWT_SECRET_KEY'],
    ['an OpenSSH public key as the HMAC secret', { secretKey: SSH }, 'JWT_SECRET_KEY'],
    ['an ssh-rsa key as the HMAC secret', { secretKey: `ssh-rsa ${'A'.repeat(60)}` }, 'JWT_SECRET_KEY'],
    ['an ECDSA OpenSSH key as the HMAC secret', { secretKey: `ecdsa-sha2-nistp256 ${'A'.repeat(60)}` }, 'JWT_SECRET_KEY'],
    ['every IPv4 client as a proxy', { trustedProxyCidrs: ['0.0.0.0/0'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['every IPv6 client as a proxy', { trustedProxyCidrs: ['::/0'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['an IPv4 range wider than /8', { trustedProxyCidrs: ['10.0.0.0/7'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['an IPv6 range wider than /32', { trustedProxyCidrs: ['2001:db8::/31'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['every IPv4 client in mapped form', { trustedProxyCidrs: ['::ffff:0.0.0.0/96'] }, 'JWT_TRUSTED_PROXY_CIDRS'],
    ['an allowed host with a path', { allowedHosts: ['example.com/app'] }, 'JWT_ALLOWED_HOSTS'],
    ['an allowed host with a scheme', { allowedHosts: ['https://example.com'] }, 'JWT_ALLOWED_HOSTS'],
    ['session lifetime over a year', { sessionExpireSeconds: 31_536_001, refreshTokenExpireSeconds: 31_536_000 }, 'JWT_SESSION_EXPIRE_SECONDS'],
    ['refresh lifetime over a year (366 days)', { refreshTokenExpireSeconds: 366 * 86_400 }, 'JWT_REFRESH_TOKEN_EXPIRE_SECONDS'],
    ['access lifetime over a day', { accessTokenExpireSeconds: 86_401 }, 'JWT_ACCESS_TOKEN_EXPIRE_SECONDS'],
    ['negative session lifetime', { sessionExpireSeconds: -1 }, 'JWT_SESSION_EXPIRE_SECONDS'],
  ])('%s', (_, overrides, setting) => {
    const error = refusal(overrides);
    expect(error.setting).toBe(setting);
    expect(error.message).not.toContain('c2VjcmV0');
  });

  it('accepts the safe forms of the same settings', () => {
    const resolved = resolveOptions({
      ...base,
      refreshCookieName: '__Host-refresh',
      refreshCookiePath: '/',
      csrfCookieName: '__Secure-csrftoken',
      trustedProxyCidrs: ['10.0.0.0/8', '2001:db8::/32', '::ffff:10.0.0.0/104', '192.0.2.7'],
      allowedHosts: ['api.example.com', '.example.com', 'localhost:3000', '[::1]:8443'],
      sessionExpireSeconds: 0,
      refreshTokenExpireSeconds: 31_536_000,
      accessTokenExpireSeconds: 86_400,
    });
    expect(resolved.sessionExpireSeconds).toBe(0);
    expect(resolved.allowedHosts).toEqual(['api.example.com', '.example.com', 'localhost:3000', '[::1]:8443']);
  });

  it('accepts an ordinary secret that merely starts with a brace', () => {
    expect(resolveOptions({ ...base, secretKey: '{not-json-but-a-long-enough-secret}' }).secretKey).toBe('{not-json-but-a-long-enough-secret}');
  });
});
