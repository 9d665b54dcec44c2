import { describe, expect, it } from 'vitest';
import { checkCsrf, csrfTokensMatch, maskCsrfSecret, newCsrfSecret, unmaskCsrfToken, type CsrfCheckInput } from '../src/http/csrf.js';

const WELL_FORMED_SECRET = /^[a-zA-Z0-9]{32}$/;

describe('CSRF tokens', () => {
  it('makes 32-character secrets from [a-zA-Z0-9], different each time', () => {
    const a = newCsrfSecret();
    expect(a).toMatch(WELL_FORMED_SECRET);
    expect(newCsrfSecret()).not.toBe(a);
  });

  it('masks to 64 characters and unmasks back', () => {
    const secret = newCsrfSecret();
    const token = maskCsrfSecret(secret);
    expect(token).toMatch(/^[a-zA-Z0-9]{64}$/);
    expect(unmaskCsrfToken(token)).toBe(secret);
  });

  it('matches Django: mask "a"*32 over secret "b"*32', () => {
    // Django's _unmask_cipher_token('a' * 32 + 'b' * 32) == 'b' * 32 because index('a') == 0.
    expect(unmaskCsrfToken('a'.repeat(32) + 'b'.repeat(32))).toBe('b'.repeat(32));
    // index('b') = 1, index('c') = 2: (2 - 1) -> 'b'; wrap-around: ('a' - 'b') -> chars[-1] = '9'.
    expect(unmaskCsrfToken('b'.repeat(32) + 'c'.repeat(32))).toBe('b'.repeat(32));
    expect(unmaskCsrfToken('b'.repeat(32) + 'a'.repeat(32))).toBe('9'.repeat(32));
  });

  it('produces different masked tokens for one secret that all match it', () => {
    const secret = newCsrfSecret();
    const first = maskCsrfSecret(secret);
    const second = maskCsrfSecret(secret);
    expect(first).not.toBe(second);
    expect(csrfTokensMatch(first, secret)).toBe(true);
    expect(csrfTokensMatch(second, secret)).toBe(true);
  });

  it('accepts the unmasked secret as the header token', () => {
    const secret = newCsrfSecret();
    expect(csrfTokensMatch(secret, secret)).toBe(true);
  });

  it('accepts a masked token in the cookie (older Django cookies)', () => {
    const secret = newCsrfSecret();
    expect(csrfTokensMatch(maskCsrfSecret(secret), maskCsrfSecret(secret))).toBe(true);
  });

  it('rejects a token of another secret', () => {
    expect(csrfTokensMatch(maskCsrfSecret(newCsrfSecret()), newCsrfSecret())).toBe(false);
  });

  it.each([
    ['different length', (t: string) => t.slice(0, 63)],
    ['too long', (t: string) => `${t}a`],
    ['bad character', (t: string) => `${t.slice(0, 63)}-`],
    ['empty', () => ''],
  ])('rejects a malformed header token (%s) without throwing', (_, mangle) => {
    const secret = newCsrfSecret();
    expect(csrfTokensMatch(mangle(maskCsrfSecret(secret)), secret)).toBe(false);
  });

  it('rejects a malformed cookie secret', () => {
    const secret = newCsrfSecret();
    expect(csrfTokensMatch(maskCsrfSecret(secret), `${secret}x`)).toBe(false);
    expect(csrfTokensMatch(maskCsrfSecret(secret), secret.replace(/./, '!'))).toBe(false);
    expect(unmaskCsrfToken('x'.repeat(40))).toBeNull();
  });

  it('refuses to mask a malformed secret', () => {
    expect(() => maskCsrfSecret('short')).toThrow(Error);
  });
});

describe('checkCsrf', () => {
  const secret = newCsrfSecret();
  const https: CsrfCheckInput = {
    method: 'POST',
    headerTokens: [maskCsrfSecret(secret)],
    cookieValues: [secret],
    origin: ['https://app.example.com'],
    referer: undefined,
    host: 'app.example.com',
    secure: true,
    trustedOrigins: ['https://admin.example.com'],
  };
  const check = (change: Partial<CsrfCheckInput>): boolean => checkCsrf({ ...https, ...change });

  it('passes a same-origin request with a matching token', () => {
    expect(check({})).toBe(true);
  });

  it('passes safe methods without any token', () => {
    expect(check({ method: 'GET', headerTokens: undefined, cookieValues: undefined, origin: ['https://evil.example'] })).toBe(true);
  });

  it('fails a wrong token', () => {
    expect(check({ headerTokens: [maskCsrfSecret(newCsrfSecret())] })).toBe(false);
  });

  it('fails a token of a different length', () => {
    expect(check({ headerTokens: [maskCsrfSecret(secret).slice(1)] })).toBe(false);
  });

  it('fails a missing header or cookie', () => {
    expect(check({ headerTokens: undefined })).toBe(false);
    expect(check({ cookieValues: undefined })).toBe(false);
    expect(check({ cookieValues: [] })).toBe(false);
  });

  it('fails duplicate header tokens or cookies even when each matches', () => {
    expect(check({ headerTokens: [maskCsrfSecret(secret), maskCsrfSecret(secret)] })).toBe(false);
    expect(check({ cookieValues: [secret, secret] })).toBe(false);
  });

  it('fails a foreign origin and the "null" origin', () => {
    expect(check({ origin: ['https://evil.example'] })).toBe(false);
    expect(check({ origin: ['http://app.example.com'] })).toBe(false);
    expect(check({ origin: ['https://app.example.com:8443'] })).toBe(false);
    expect(check({ origin: ['null'] })).toBe(false);
    expect(check({ origin: ['https://app.example.com/path'] })).toBe(false);
    expect(check({ origin: ['https://app.example.com', 'https://app.example.com'] })).toBe(false);
  });

  it('passes a trusted origin and a default port written out', () => {
    expect(check({ origin: ['https://admin.example.com'] })).toBe(true);
    expect(check({ host: 'app.example.com:443' })).toBe(true);
    expect(check({ origin: ['https://APP.example.com'] })).toBe(true);
  });

  it('passes a plain-HTTP same-origin request on a port', () => {
    expect(check({ secure: false, host: 'localhost:3000', origin: ['http://localhost:3000'] })).toBe(true);
    expect(check({ secure: false, host: 'localhost:3000', origin: ['http://localhost:3001'] })).toBe(false);
  });

  it('fails an HTTPS request with neither Origin nor Referer', () => {
    expect(check({ origin: undefined, referer: undefined })).toBe(false);
  });

  it('passes an HTTPS request without Origin but with a same-origin or trusted Referer', () => {
    expect(check({ origin: undefined, referer: ['https://app.example.com/login?next=/'] })).toBe(true);
    expect(check({ origin: undefined, referer: ['https://admin.example.com/'] })).toBe(true);
  });

  it('fails an HTTPS request whose Referer is foreign, insecure, malformed or repeated', () => {
    expect(check({ origin: undefined, referer: ['https://evil.example/'] })).toBe(false);
    expect(check({ origin: undefined, referer: ['http://app.example.com/'] })).toBe(false);
    expect(check({ origin: undefined, referer: ['not a url'] })).toBe(false);
    expect(check({ origin: undefined, referer: ['https://app.example.com/', 'https://app.example.com/'] })).toBe(false);
  });

  it('needs no Referer on plain HTTP without Origin', () => {
    expect(check({ secure: false, origin: undefined, referer: undefined })).toBe(true);
  });

  it('fails when the host is missing or odd and the origin is not trusted', () => {
    expect(check({ host: undefined })).toBe(false);
    expect(check({ host: 'evil.example@app.example.com' })).toBe(false);
  });
});
