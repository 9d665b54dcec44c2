import { expect } from 'vitest';
import type { ParsedSetCookie } from './cookie-jar.js';
import { cookieNamed, expectError } from './expectations.js';
import { field, type HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

/** The refresh cookie is HttpOnly, Secure, SameSite=Lax on `path`, and holds a token. */
function expectRefreshCookie(result: HttpResult, path: string): ParsedSetCookie {
  const cookie = cookieNamed(result, 'refresh_token');
  if (cookie === undefined) throw new Error(`no refresh_token cookie in ${result.setCookies.map((c) => c.raw).join(' | ')}`);
  expect(cookie.attributes.has('httponly'), cookie.raw).toBe(true);
  expect(cookie.attributes.has('secure'), cookie.raw).toBe(true);
  expect(cookie.attributes.get('samesite')?.toLowerCase(), cookie.raw).toBe('lax');
  expect(cookie.attributes.get('path'), cookie.raw).toBe(path);
  expect(cookie.value.split('.')).toHaveLength(3);
  return cookie;
}

/**
 * The keys of a token response. In cookie and both modes the engine may add the
 * rotated `csrf_token` (the CSRF secret changes at login); nothing else is allowed.
 */
function tokenKeys(body: unknown): string[] {
  return Object.keys(body as object)
    .filter((key) => key !== 'csrf_token')
    .sort();
}

/** Where the refresh token travels: body, cookie or both. */
export function transportSuite(kit: SuiteKit): void {
  kit.test('transport/body', 'body mode: both tokens in JSON, no cookie at all', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    expect(alice.result.setCookies.map((cookie) => cookie.raw)).toEqual([]);
    const refreshed = await app.refresh(alice.client, alice.refresh);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(Object.keys(refreshed.body as object).sort()).toEqual(['access_token', 'refresh_token']);
    expect(refreshed.setCookies.map((cookie) => cookie.raw)).toEqual([]);
  });

  kit.test('transport/cookie', 'cookie mode: the refresh token only as an HttpOnly cookie; refresh with {}', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const alice = await app.login('alice');
    expect(tokenKeys(alice.result.body)).toEqual(['access_token']);
    const first = expectRefreshCookie(alice.result, '/auth/refresh/');

    // A csrf_token returned at login must be usable as is; otherwise ask GET /auth/csrf/.
    const rotated = field(alice.result.body, 'csrf_token');
    if (typeof rotated === 'string') alice.client.csrfToken = rotated;
    else await alice.client.fetchCsrf();
    const refreshed = await alice.client.post('/auth/refresh/', { json: {}, csrf: true });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(tokenKeys(refreshed.body)).toEqual(['access_token']);
    const second = expectRefreshCookie(refreshed, '/auth/refresh/');
    expect(second.value).not.toBe(first.value);
    const me = await alice.client.get('/me', { bearer: String(field(refreshed.body, 'access_token')) });
    expect(me.status, me.text).toBe(200);

    // Replaying the first cookie is reuse, and it kills the session (the current cookie included).
    const withRefresh = (value: string) => ({ cookie: `csrftoken=${alice.client.jar.get('csrftoken') ?? ''}; refresh_token=${value}` });
    const replay = await alice.client.post('/auth/refresh/', { json: {}, csrf: true, headers: withRefresh(first.value) });
    expectError(replay, 401, 'token_reuse_detected');
    const current = await alice.client.post('/auth/refresh/', { json: {}, csrf: true, headers: withRefresh(second.value) });
    expectError(current, 401, 'session_expired');
  });

  kit.test('transport/cookie-missing', 'cookie mode: refresh with {} and no cookie is refused with a code', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const client = app.client();
    await client.fetchCsrf();
    const result = await client.post('/auth/refresh/', { json: {}, csrf: true });
    expectError(result, result.status === 400 ? 400 : 401, ['invalid_request', 'invalid_token']);
  });

  kit.test('transport/both', 'both mode: the refresh token in JSON and as the cookie; either refreshes', async () => {
    const app = await kit.start({ refreshTokenTransport: 'both' });
    const alice = await app.login('alice');
    expect(tokenKeys(alice.result.body)).toEqual(['access_token', 'refresh_token']);
    expect(expectRefreshCookie(alice.result, '/auth/refresh/').value).toBe(field(alice.result.body, 'refresh_token'));

    const byBody = await app.refresh(alice.client, alice.refresh);
    expect(byBody.status, byBody.text).toBe(200);
    expect(expectRefreshCookie(byBody, '/auth/refresh/').value).toBe(field(byBody.body, 'refresh_token'));
    const byCookie = await alice.client.post('/auth/refresh/', { json: {}, csrf: true });
    expect(byCookie.status, byCookie.text).toBe(200);
    expect(typeof field(byCookie.body, 'refresh_token')).toBe('string');
  });

  kit.test('transport/duplicate-refresh-cookie', 'two refresh cookies in one request fail closed and change nothing', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const alice = await app.login('alice');
    await alice.client.fetchCsrf();
    const csrf = alice.client.jar.get('csrftoken') ?? '';
    const other = (await app.login('alice')).refresh;
    for (const pair of [
      [alice.refresh, alice.refresh],
      [alice.refresh, other],
      [other, alice.refresh],
    ]) {
      const cookie = `csrftoken=${csrf}; refresh_token=${pair[0]}; refresh_token=${pair[1]}`;
      const result = await alice.client.post('/auth/refresh/', { json: {}, csrf: true, headers: { cookie } });
      expect(result.status, result.text).toBe(401);
      expect(result.errorCode).toMatch(/^[a-z_]+$/);
    }
    const single = await alice.client.post('/auth/refresh/', { json: {}, csrf: true });
    expect(single.status, single.text).toBe(200);
  });

  kit.test('transport/custom-prefix', 'the endpoints and the cookie path follow the configured prefix', async () => {
    const app = await kit.start({ prefix: '/api/auth', refreshTokenTransport: 'cookie' });
    expect(app.at('/login/')).toBe('/api/auth/login/');
    const alice = await app.login('alice');
    expectRefreshCookie(alice.result, '/api/auth/refresh/');
    expect((await app.refresh(alice.client)).status).toBe(200);
    const list = await alice.client.get('/api/auth/sessions/', { bearer: alice.access });
    expect(list.status, list.text).toBe(200);
    expect((await alice.client.get('/auth/sessions/', { bearer: alice.access })).status).not.toBe(200);
  });
}
