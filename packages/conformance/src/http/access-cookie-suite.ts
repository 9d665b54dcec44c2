import { expect } from 'vitest';
import { isClearingCookie, type ParsedSetCookie } from './cookie-jar.js';
import type { TestApp } from './conformance-app.js';
import { expectError } from './expectations.js';
import type { HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

/** The access-token cookie on, in the cookie transport (where the CSRF check it relies on exists). */
const COOKIE_ON = { refreshTokenTransport: 'cookie', accessTokenCookie: true } as const;

function accessCookieOf(app: TestApp, result: HttpResult): ParsedSetCookie | undefined {
  return result.setCookies.find((cookie) => cookie.name === app.auth.options.accessCookieName);
}

/**
 * JWT_ACCESS_TOKEN_COOKIE (issue 27, point 3): a server-rendered page load carries the access
 * token in an HttpOnly cookie. Written from RFC 6265bis (the attributes a browser needs to keep
 * the cookie on every path of the site, off cross-site subrequests and out of scripts) and from
 * the attacker's side: a cookie-authenticated unsafe request without the CSRF token is refused.
 */
export function accessCookieSuite(kit: SuiteKit): void {
  kit.test(
    'access-cookie/set-and-read',
    'login, refresh and step-up set the cookie (HttpOnly, Secure, SameSite=Lax, Path=/, Max-Age = access lifetime); the guard reads it without Authorization; an unsafe method by it needs CSRF',
    async () => {
      const app = await kit.start(COOKIE_ON);
      const alice = await app.login('alice');
      const cookie = accessCookieOf(app, alice.result);
      expect(cookie, 'the login sets the access-token cookie').toBeDefined();
      expect(cookie?.value).toBe(alice.access);
      expect(cookie?.attributes.get('httponly')).toBe('');
      expect(cookie?.attributes.get('secure')).toBe('');
      expect(cookie?.attributes.get('samesite')?.toLowerCase()).toBe('lax');
      expect(cookie?.attributes.get('path')).toBe('/');
      expect(Number(cookie?.attributes.get('max-age'))).toBe(app.auth.options.accessTokenExpireSeconds);
      expect(cookie?.attributes.has('domain')).toBe(false);

      // A plain page load: cookies only, no Authorization header.
      const me = await alice.client.get('/me');
      expect(me.status, me.text).toBe(200);
      expect((me.body as { user: { username: string } }).user.username).toBe('alice');
      const optional = await alice.client.get('/me/optional');
      expect((optional.body as { user: { username: string } | null }).user?.username).toBe('alice');
      // A sent Authorization header wins over the cookie, even a bad one.
      expectError(await alice.client.get('/me', { bearer: 'not-a-token' }), 401, 'invalid_token');

      // A forged unsafe request: the browser attaches the cookie, but the page cannot read the CSRF token.
      const forged = await alice.client.post('/me/password', { json: { current_password: 'x', new_password: 'long-enough-1' } });
      expectError(forged, 403, 'csrf_failed');
      // With the token, the guard lets it through (to the route's own answer: a wrong current password).
      await alice.client.fetchCsrf(app.prefix);
      const withToken = await alice.client.post('/me/password', {
        json: { current_password: 'wrong-password', new_password: 'long-enough-1' },
        csrf: true,
      });
      expectError(withToken, 401, 'invalid_credentials');

      // Refresh and step-up issue a new access token each, and a new cookie with it.
      const refreshed = await app.refresh(alice.client);
      expect(refreshed.status, refreshed.text).toBe(200);
      expect(accessCookieOf(app, refreshed)?.value).toBe((refreshed.body as { access_token: string }).access_token);
      const steppedUp = await alice.client.post(app.at('/reauthenticate/'), {
        json: { password: app.users.passwords.alice },
        bearer: alice.access,
        csrf: true,
      });
      expect(steppedUp.status, steppedUp.text).toBe(200);
      expect(accessCookieOf(app, steppedUp)?.value).toBe((steppedUp.body as { access_token: string }).access_token);
    },
  );

  kit.test('access-cookie/revoked-and-logout', 'a revoked session is no longer accepted by its cookie; logout clears the cookie', async () => {
    const app = await kit.start(COOKIE_ON);
    const laptop = await app.login('alice');
    const phone = await app.login('alice');
    await app.auth.invalidateAllForUser(app.users.alice.id);
    expectError(await laptop.client.get('/me'), 401, 'session_expired');
    expect((await laptop.client.get('/me/optional')).body).toEqual({ user: null });

    const tablet = await app.login('alice');
    const logout = await tablet.client.post(app.at('/logout/'), { bearer: tablet.access });
    expect(logout.status, logout.text).toBe(200);
    const cleared = accessCookieOf(app, logout);
    expect(cleared !== undefined && isClearingCookie(cleared), 'logout clears the access-token cookie').toBe(true);
    expect(cleared?.attributes.get('path')).toBe('/');
    expect(tablet.client.jar.get(app.auth.options.accessCookieName)).toBeUndefined();
    expectError(await tablet.client.get('/me'), 401, 'invalid_token');
    // The phone's old cookie, replayed by hand after the logout-all above: still refused.
    expectError(await phone.client.get('/me'), 401, 'session_expired');
  });

  kit.test('access-cookie/off', 'off (the default), no access-token cookie is set and a planted one authenticates nothing', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const alice = await app.login('alice');
    expect(accessCookieOf(app, alice.result)).toBeUndefined();
    alice.client.jar.set(app.auth.options.accessCookieName, alice.access);
    expectError(await alice.client.get('/me'), 401, 'invalid_token');
    expect((await alice.client.get('/me/optional')).body).toEqual({ user: null });
  });
}
