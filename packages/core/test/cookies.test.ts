import { describe, expect, it } from 'vitest';
import { parseCookieHeader, serializeCookie } from '../src/http/cookies.js';
import type { SetCookie } from '../src/http/cookies.js';

describe('parseCookieHeader', () => {
  it('gives an empty map without headers', () => {
    expect(parseCookieHeader(undefined).size).toBe(0);
    expect(parseCookieHeader([]).size).toBe(0);
  });

  it('reads every pair, trimming names and values', () => {
    const cookies = parseCookieHeader(['a=1;  b = 2 ;c=3']);
    expect(Object.fromEntries(cookies)).toEqual({ a: ['1'], b: ['2'], c: ['3'] });
  });

  it('keeps duplicates across one and several headers, in order', () => {
    const cookies = parseCookieHeader(['csrftoken=one; x=1', 'csrftoken=two', 'csrftoken=three']);
    expect(cookies.get('csrftoken')).toEqual(['one', 'two', 'three']);
  });

  it('unquotes quoted values', () => {
    expect(parseCookieHeader(['a="quoted value"']).get('a')).toEqual(['quoted value']);
    expect(parseCookieHeader(['a="']).get('a')).toEqual(['"']);
  });

  it('decodes percent-encoding and keeps malformed encoding as is', () => {
    expect(parseCookieHeader(['a=x%20y%3Dz']).get('a')).toEqual(['x y=z']);
    expect(parseCookieHeader(['a=100%; b=%E0%A4%A']).get('a')).toEqual(['100%']);
    expect(parseCookieHeader(['b=%E0%A4%A']).get('b')).toEqual(['%E0%A4%A']);
  });

  it('keeps "=" inside values and skips pairs without a name or "="', () => {
    const cookies = parseCookieHeader(['token=abc==; flag; =orphan; ; empty=']);
    expect(Object.fromEntries(cookies)).toEqual({ token: ['abc=='], empty: [''] });
  });

  it('is safe against prototype names', () => {
    const cookies = parseCookieHeader(['__proto__=x; constructor=y']);
    expect(cookies.get('__proto__')).toEqual(['x']);
    expect(cookies.get('constructor')).toEqual(['y']);
  });
});

describe('serializeCookie', () => {
  const refresh: SetCookie = {
    name: 'refresh_token',
    value: 'abc.def-ghi_jkl',
    path: '/auth/refresh/',
    maxAge: 1209600,
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
  };

  it('writes every attribute', () => {
    expect(serializeCookie(refresh)).toBe('refresh_token=abc.def-ghi_jkl; Path=/auth/refresh/; Max-Age=1209600; HttpOnly; Secure; SameSite=Lax');
    expect(serializeCookie({ ...refresh, domain: 'example.com', sameSite: 'Strict', httpOnly: false })).toBe(
      'refresh_token=abc.def-ghi_jkl; Path=/auth/refresh/; Domain=example.com; Max-Age=1209600; Secure; SameSite=Strict',
    );
  });

  it('clears with Max-Age=0 and an Expires in 1970', () => {
    expect(serializeCookie({ ...refresh, value: '', maxAge: 0 })).toBe(
      'refresh_token=; Path=/auth/refresh/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    );
  });

  it('writes a session cookie without maxAge', () => {
    const { maxAge: _, ...session } = refresh;
    expect(serializeCookie(session)).toBe('refresh_token=abc.def-ghi_jkl; Path=/auth/refresh/; HttpOnly; Secure; SameSite=Lax');
  });

  it.each<[string, Partial<SetCookie>]>([
    ['name with space', { name: 'bad name' }],
    ['name with =', { name: 'a=b' }],
    ['empty name', { name: '' }],
    ['value with ;', { value: 'a;b' }],
    ['value with space', { value: 'a b' }],
    ['value with quote', { value: 'a"b' }],
    ['value with comma', { value: 'a,b' }],
    ['value with newline', { value: 'a\nSet-Cookie: x=y' }],
    ['non-ASCII value', { value: 'é' }],
    ['path with ;', { path: '/a; Domain=evil.com' }],
    ['relative path', { path: 'auth' }],
    ['domain with ;', { domain: 'a.com; Secure' }],
    ['negative maxAge', { maxAge: -1 }],
    ['fractional maxAge', { maxAge: 1.5 }],
    ['SameSite=None without Secure', { sameSite: 'None', secure: false }],
  ])('throws on %s', (_, change) => {
    expect(() => serializeCookie({ ...refresh, ...change })).toThrow(Error);
  });

  it('allows SameSite=None with Secure', () => {
    expect(serializeCookie({ ...refresh, sameSite: 'None' })).toContain('; Secure; SameSite=None');
  });
});
