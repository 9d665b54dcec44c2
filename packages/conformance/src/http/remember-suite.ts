import { expect } from 'vitest';
import type { TestApp } from './conformance-app.js';
import { cookieNamed, expectError } from './expectations.js';
import { field, type HttpClient, type HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';
import { claimsOf } from './token-forge.js';

const DAY = 86_400;

/** POST {prefix}/login/ as alice with `extra` in the body (CSRF first in cookie/both transport). */
async function loginWith(app: TestApp, extra: Record<string, unknown>, client: HttpClient = app.client()): Promise<HttpResult> {
  const cookies = app.auth.options.refreshTokenTransport !== 'body';
  if (cookies) await client.fetchCsrf(app.prefix);
  return client.post(app.at('/login/'), {
    json: { username: 'alice', password: app.users.passwords.alice, ...extra },
    csrf: cookies,
  });
}

/** The stored lifetime (expiresAt - createdAt, in seconds) of the session a login answered. */
async function storedLifetime(app: TestApp, result: HttpResult): Promise<number> {
  const sid = claimsOf(String(field(result.body, 'access_token'))).sid;
  const session = await app.store.findSession(String(sid));
  if (session === null) throw new Error('the login created no session');
  return Math.round((session.expiresAt.getTime() - session.createdAt.getTime()) / 1000);
}

/** `"remember": false` at login: a short session and, in cookie transport, a browser-session refresh cookie. */
export function rememberSuite(kit: SuiteKit): void {
  kit.test(
    'remember/short-session-cookie',
    '"remember": false gives a short session whose refresh cookie has no Max-Age or Expires, refresh after refresh',
    async () => {
      const app = await kit.start({ refreshTokenTransport: 'cookie' });
      const client = app.client();
      const login = await loginWith(app, { remember: false }, client);
      expect(login.status, login.text).toBe(200);
      expect(await storedLifetime(app, login)).toBe(DAY);
      for (const result of [login, await app.refresh(client), await app.refresh(client)]) {
        expect(result.status, result.text).toBe(200);
        const cookie = cookieNamed(result, 'refresh_token');
        expect(cookie?.value, cookie?.raw).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
        expect(cookie?.attributes.has('max-age'), cookie?.raw).toBe(false);
        expect(cookie?.attributes.has('expires'), cookie?.raw).toBe(false);
        expect(cookie?.attributes.get('path'), cookie?.raw).toBe(app.at('/refresh/'));
      }
      // The short lifetime is the session's absolute end, enforced by the store.
      app.clock.advance(DAY + 1);
      expectError(await app.refresh(client), 401, 'session_expired');
    },
  );

  kit.test('remember/default-unchanged', '"remember": true or absent keeps the session lifetime and a persistent cookie', async () => {
    const app = await kit.start({ refreshTokenTransport: 'both', shortSessionExpireSeconds: 3600 });
    for (const extra of [{}, { remember: true }]) {
      const client = app.client();
      const login = await loginWith(app, extra, client);
      expect(login.status, login.text).toBe(200);
      expect(await storedLifetime(app, login)).toBe(14 * DAY);
      const refreshed = await app.refresh(client);
      expect(refreshed.status, refreshed.text).toBe(200);
      for (const result of [login, refreshed]) {
        const maxAge = Number(cookieNamed(result, 'refresh_token')?.attributes.get('max-age'));
        expect(maxAge).toBeGreaterThan(14 * DAY - 60);
        expect(maxAge).toBeLessThanOrEqual(14 * DAY);
      }
    }
    // A custom short lifetime, in body transport terms too (the session's end is in the store).
    const short = await loginWith(app, { remember: false });
    expect(await storedLifetime(app, short)).toBe(3600);
  });

  kit.test('remember/invalid-type', 'a "remember" that is not a boolean is 400 invalid_request and creates no session', async () => {
    const app = await kit.start();
    for (const remember of ['false', 0, 1, null, {}, []]) {
      expectError(await loginWith(app, { remember }), 400, 'invalid_request');
    }
    expect(await app.store.listActiveSessions(app.users.alice.id, app.clock.now())).toEqual([]);
  });
}
