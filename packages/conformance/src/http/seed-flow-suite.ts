import { expect } from 'vitest';
import { expectEmptyOk } from './expectations.js';
import { field } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

/**
 * The seed's browser flow, word for word, as a JWT Ninja client does it: (1) one
 * `GET /auth/csrf/`, keep the cookie, read `csrf_token`; (2) send that same masked value
 * in `X-CSRFToken` on login and on every refresh; (3) keep sending the cookies. The
 * client never reads the login response's `csrf_token` and its jar accepts every
 * `Set-Cookie`: a secret that rotated at login would log it out at its first refresh.
 */
export function seedFlowSuite(kit: SuiteKit): void {
  for (const transport of ['cookie', 'both'] as const) {
    kit.test(
      `seed/browser-flow-${transport}`,
      `${transport} transport: one CSRF token from GET /auth/csrf/ serves login, five refreshes, list and logout`,
      async () => {
        const app = await kit.start({ refreshTokenTransport: transport });
        const client = app.client();
        const csrf = await client.get(app.at('/csrf/'));
        expect(csrf.status, csrf.text).toBe(200);
        const token = field(csrf.body, 'csrf_token');
        if (typeof token !== 'string') throw new Error(`no csrf_token in ${csrf.text}`);
        const sameToken = { 'x-csrftoken': token };

        const login = await client.post(app.at('/login/'), {
          json: { username: 'alice', password: app.users.passwords.alice },
          headers: sameToken,
        });
        expect(login.status, login.text).toBe(200);
        let access = field(login.body, 'access_token');
        let bodyToken = field(login.body, 'refresh_token');
        for (let round = 1; round <= 5; round++) {
          // Cookie-transport clients send `{}`; in both mode the client sends its body token too.
          const json = transport === 'cookie' ? {} : { refresh_token: bodyToken };
          const refresh = await client.post(app.at('/refresh/'), { json, headers: sameToken });
          expect(refresh.status, `refresh ${round}: ${refresh.text}`).toBe(200);
          access = field(refresh.body, 'access_token');
          bodyToken = field(refresh.body, 'refresh_token');
        }
        const list = await client.get(app.at('/sessions/'), { bearer: String(access) });
        expect(list.status, list.text).toBe(200);
        expect(Array.isArray(list.body) && list.body.length).toBe(1);
        expectEmptyOk(await client.post(app.at('/logout/'), { bearer: String(access), headers: sameToken }));
        // Logged out for real: the guard refuses the last access token.
        expect((await client.get('/me', { bearer: String(access) })).status).toBe(401);
      },
    );
  }
  kit.test('seed/csrf-stable-across-login', 'login leaves the CSRF cookie alone: its secret is the one GET /auth/csrf/ set', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const client = app.client();
    await client.fetchCsrf(app.prefix);
    const before = client.jar.get(app.auth.options.csrfCookieName);
    const login = await client.post(app.at('/login/'), { json: { username: 'alice', password: app.users.passwords.alice }, csrf: true });
    expect(login.status, login.text).toBe(200);
    expect(login.setCookies.map((cookie) => cookie.name)).not.toContain(app.auth.options.csrfCookieName);
    expect(client.jar.get(app.auth.options.csrfCookieName)).toBe(before);
  });
}
