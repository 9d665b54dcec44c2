import { expect } from 'vitest';
import type { TestApp } from './conformance-app.js';
import { expectError } from './expectations.js';
import { field, type HttpClient } from './http-client.js';
import { rawRequest } from './raw-http.js';
import type { SuiteKit } from './suite-kit.js';
import { claimSet, claimsOf, forgeToken } from './token-forge.js';

const DAY = 86_400;

function sessionsOf(app: TestApp, client: HttpClient, access: string): Promise<number> {
  return client.get(app.at('/sessions/'), { bearer: access }).then((list) => (Array.isArray(list.body) ? list.body.length : -1));
}

/** The contract details JWT Ninja clients rely on (SPEC, "Decisions where JWT Ninja is silent"). */
export function contractDetailsSuite(kit: SuiteKit): void {
  kit.test('details/refresh-without-token', 'a refresh that carries no token at all is 401 invalid_token and consumes nothing', async () => {
    const body = await kit.start();
    const alice = await body.login('alice');
    const client = body.client();
    for (const json of [{}, { refresh_token: '' }, { refresh_token: null }]) {
      expectError(await client.post(body.at('/refresh/'), { json }), 401, 'invalid_token');
    }
    // A refresh cookie is not read in body transport: still no token.
    const cookie = `${body.auth.options.refreshCookieName}=${alice.refresh}`;
    expectError(await client.post(body.at('/refresh/'), { json: {}, headers: { cookie } }), 401, 'invalid_token');
    expect((await body.refresh(alice.client, alice.refresh)).status, 'nothing was consumed').toBe(200);

    const cookieMode = await kit.start({ refreshTokenTransport: 'cookie' });
    const bare = cookieMode.client();
    await bare.fetchCsrf(cookieMode.prefix);
    expectError(await bare.post(cookieMode.at('/refresh/'), { json: {}, csrf: true }), 401, 'invalid_token');
  });

  kit.test('details/delete-any-id', 'DELETE /auth/sessions/{any id}/ authenticates first, then answers like an unknown id', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const ids = ['x'.repeat(300), '%41%42', 'a%2Fb', 'caf%C3%A9', "it's", 'a.b', '%00', 'all', '~', '%ZZ'];
    for (const id of ids) {
      const path = app.at(`/sessions/${id}/`);
      expectError(await rawRequest(app.baseUrl, 'DELETE', path), 401, 'invalid_token');
      expectError(await rawRequest(app.baseUrl, 'DELETE', path, { authorization: `Bearer ${alice.access}` }), 404, 'session_not_found');
    }
    expect(await sessionsOf(app, alice.client, alice.access), 'nothing was revoked').toBe(1);
  });

  kit.test('details/all-hops-trusted', 'when every X-Forwarded-For hop is a trusted proxy, the direct peer is recorded', async () => {
    const app = await kit.start({ trustedProxyCidrs: ['127.0.0.1/32', '10.0.0.0/8'] });
    app.secrets.add('10.1.2.3');
    const session = await app.login('alice', { headers: { 'x-forwarded-for': '10.1.2.3, 10.0.0.9' } });
    const list = await session.client.get(app.at('/sessions/'), { bearer: session.access });
    expect(field((list.body as unknown[])[0], 'ip_address')).toBe('127.0.0.1');
  });

  kit.test('details/session-never-ages-out', 'JWT_SESSION_EXPIRE_SECONDS=0: a session lives on while its refresh tokens are used', async () => {
    const app = await kit.start({ sessionExpireSeconds: 0, refreshTokenExpireSeconds: 10 * DAY });
    const alice = await app.login('alice');
    let refresh = alice.refresh;
    let access = alice.access;
    for (let round = 0; round < 4; round++) {
      app.clock.advance(9 * DAY); // 36 days in all: past any lifetime a session could have had
      const answer = await app.refresh(alice.client, refresh);
      expect(answer.status, answer.text).toBe(200);
      refresh = String(field(answer.body, 'refresh_token') ?? alice.client.jar.get(app.auth.options.refreshCookieName));
      access = String(field(answer.body, 'access_token'));
    }
    expect(await sessionsOf(app, alice.client, access)).toBe(1);
    // Its refresh token still ends on its own: unused for longer than its lifetime, it is expired.
    app.clock.advance(10 * DAY + 1);
    expectError(await app.refresh(alice.client, refresh), 401, 'expired_token');
  });

  kit.test(
    'details/lifetime-cap',
    "a well-signed token whose exp - iat exceeds its kind's lifetime, or whose times are not safe integers, is 401",
    async () => {
      const app = await kit.start({ accessTokenExpireSeconds: 300, refreshTokenExpireSeconds: DAY, sessionExpireSeconds: DAY });
      const alice = await app.login('alice');
      const { sub, sid } = claimsOf(alice.access);
      const iat = Math.floor(app.clock.now().getTime() / 1000);
      // Every time claim explicit: the clock runs on while the test builds them.
      const times = { iat, nbf: iat };
      const bad = [
        { ...times, exp: iat + 301 },
        { ...times, exp: iat + 10 * 365 * DAY },
        { ...times, exp: 1e300 },
        { ...times, exp: iat + 100.5 },
        { iat: iat - 0.5, nbf: iat - 1, exp: iat + 200 },
      ];
      for (const overrides of bad) {
        const token = await forgeToken(app.forge, 'at+jwt', claimSet(app.forge, { sub, sid, ...overrides }));
        expectError(await alice.client.get('/me', { bearer: token }), 401, 'invalid_token');
      }
      const fine = await forgeToken(app.forge, 'at+jwt', claimSet(app.forge, { sub, sid, ...times, exp: iat + 300 }));
      expect((await alice.client.get('/me', { bearer: fine })).status, 'the configured lifetime itself passes').toBe(200);
      const { jti } = claimsOf(alice.refresh);
      const longRefresh = await forgeToken(app.forge, 'rt+jwt', claimSet(app.forge, { sub, sid, jti, ...times, exp: iat + DAY + 1 }));
      expectError(await app.refresh(app.client(), longRefresh), 401, 'invalid_token');
      expect((await app.refresh(alice.client, alice.refresh)).status, 'the refused token revoked nothing').toBe(200);
    },
  );

  kit.test('details/length-settings', 'JWT_MAX_USERNAME_LENGTH and JWT_MAX_PASSWORD_LENGTH bound the built-in login', async () => {
    const password = (app: TestApp) => app.users.passwords.alice;
    const login = (app: TestApp) => app.client().post(app.at('/login/'), { json: { username: 'alice', password: password(app) } });
    const roomy = await kit.start({ maxUsernameLength: 5 });
    expect((await login(roomy)).status, 'alice has 5 characters').toBe(200);
    const shortNames = await kit.start({ maxUsernameLength: 4 });
    expectError(await login(shortNames), 401, 'invalid_credentials');
    const probe = await kit.start();
    const shortPasswords = await kit.start({ maxPasswordLength: password(probe).length - 1 });
    expectError(await login(shortPasswords), 401, 'invalid_credentials');
    const exact = await kit.start({ maxPasswordLength: password(probe).length });
    expect((await login(exact)).status).toBe(200);
  });
}
