import { expect } from 'vitest';
import type { LoggedIn, TestApp } from './conformance-app.js';
import { expectEmptyOk, expectError, expectNoStore } from './expectations.js';
import type { HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';
import { claimsOf } from './token-forge.js';

/** The rule every mount puts on `GET /me/fresh` (`requireFresh(auth, FRESH_ROUTE_RULE)`). */
export const FRESH_ROUTE_RULE = { maxAgeSeconds: 300 } as const;

/** Access tokens outlive the clock jumps: freshness, not token expiry, is under test. */
const LONG_TOKENS = { accessTokenExpireSeconds: 3600 };
/** Throttled apps trust the loopback proxy so each test counts under its own client address. */
const THROTTLED = { trustedProxyCidrs: ['127.0.0.1/32'] };

/**
 * RFC 6750 s3 / RFC 9470 s3: `WWW-Authenticate: Bearer k=v, ...`, read as a client written from
 * the RFCs would (token or quoted-string values), not by comparing our exact bytes.
 */
function bearerChallenge(result: HttpResult): Record<string, string> {
  const header = result.headers.get('www-authenticate') ?? '';
  const match = /^Bearer\s+(.*)$/i.exec(header);
  expect(match, `WWW-Authenticate: ${header}`).not.toBeNull();
  const params: Record<string, string> = {};
  const pattern = /([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([!#$%&'*+.^_`|~0-9A-Za-z-]+))\s*(?:,\s*|$)/y;
  const rest = match?.[1] ?? '';
  let parsed: RegExpExecArray | null;
  for (pattern.lastIndex = 0; (parsed = pattern.exec(rest)) !== null; ) {
    params[parsed[1]!.toLowerCase()] = parsed[2] === undefined ? parsed[3]! : parsed[2].replace(/\\(.)/g, '$1');
    if (pattern.lastIndex === rest.length) break;
  }
  return params;
}

function expectStale(result: HttpResult, maxAge: number): void {
  expectError(result, 401, 'insufficient_user_authentication');
  expectNoStore(result, 'a stale session');
  const challenge = bearerChallenge(result);
  expect(challenge.error).toBe('insufficient_user_authentication');
  expect(Number(challenge.max_age)).toBe(maxAge);
}

function reauthenticate(app: TestApp, who: LoggedIn, json: unknown, options: { csrf?: boolean; headers?: Record<string, string> } = {}) {
  return who.client.post(app.at('/reauthenticate/'), {
    json,
    bearer: who.access,
    csrf: options.csrf ?? false,
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

const nowSeconds = (app: TestApp) => Math.floor(app.clock.now().getTime() / 1000);

/** Freshness and step-up (RFC 9470): `requireFresh`, `POST {prefix}/reauthenticate/`, JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS. */
export function stepUpSuite(kit: SuiteKit): void {
  kit.test(
    'step-up/fresh-route-challenge',
    "requireFresh answers a stale session 401 with RFC 9470's challenge; the plain guard still lets it in",
    async () => {
      const app = await kit.start(LONG_TOKENS);
      const alice = await app.login('alice');
      expect((await alice.client.get('/me/fresh', { bearer: alice.access })).status).toBe(200);
      app.clock.advance(FRESH_ROUTE_RULE.maxAgeSeconds + 1);
      expectStale(await alice.client.get('/me/fresh', { bearer: alice.access }), FRESH_ROUTE_RULE.maxAgeSeconds);
      expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(200);
      // A bad token is the guard's own 401, not a freshness challenge.
      expectError(await alice.client.get('/me/fresh', { bearer: 'not-a-token' }), 401, 'invalid_token');
    },
  );

  kit.test(
    'step-up/reauthenticate',
    'reauthenticate raises auth_time on the same session and answers a fresh access token; no new session',
    async () => {
      const app = await kit.start(LONG_TOKENS);
      const alice = await app.login('alice');
      app.clock.advance(FRESH_ROUTE_RULE.maxAgeSeconds + 60);
      const before = nowSeconds(app);
      const result = await reauthenticate(app, alice, { password: app.users.passwords.alice });
      expect(result.status, result.text).toBe(200);
      expectNoStore(result, 'POST reauthenticate');
      expect(result.setCookies).toEqual([]);
      const body = result.body as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['access_token']);
      const claims = claimsOf(String(body.access_token));
      expect(claims.sid).toBe(alice.sessionId);
      expect(claims.sub).toBe(app.users.alice.id);
      // The second the step-up was made in: the clock is real time, a second may end meanwhile.
      expect(claims.auth_time).toBeGreaterThanOrEqual(before);
      expect(claims.auth_time).toBeLessThanOrEqual(nowSeconds(app));
      // Fresh again, with the new token and with the old one (freshness is the session's).
      for (const bearer of [String(body.access_token), alice.access]) expect((await alice.client.get('/me/fresh', { bearer })).status).toBe(200);
      const sessions = await alice.client.get(app.at('/sessions/'), { bearer: alice.access });
      expect((sessions.body as unknown[]).length).toBe(1);
      // The refresh token was not rotated: it still refreshes, once.
      expect((await app.refresh(alice.client, alice.refresh)).status).toBe(200);
    },
  );

  kit.test('step-up/reauthenticate-wrong-password', "a wrong or another user's password is 401 invalid_credentials and raises nothing", async () => {
    const app = await kit.start(LONG_TOKENS);
    const alice = await app.login('alice');
    app.clock.advance(FRESH_ROUTE_RULE.maxAgeSeconds + 1);
    for (const password of ['not-it', app.users.passwords.bob]) {
      expectError(await reauthenticate(app, alice, { password }), 401, 'invalid_credentials');
    }
    expectStale(await alice.client.get('/me/fresh', { bearer: alice.access }), FRESH_ROUTE_RULE.maxAgeSeconds);
    // The session itself is fine: a failed step-up signs no one out.
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(200);
  });

  kit.test('step-up/reauthenticate-request-rules', 'reauthenticate: guard first, JSON only, a string password', async () => {
    const app = await kit.start(LONG_TOKENS);
    const alice = await app.login('alice');
    const anonymous = await app.client().post(app.at('/reauthenticate/'), { json: { password: app.users.passwords.alice } });
    expect(anonymous.status).toBe(401);
    const form = await alice.client.post(app.at('/reauthenticate/'), {
      body: `password=${app.users.passwords.alice}`,
      contentType: 'application/x-www-form-urlencoded',
      bearer: alice.access,
    });
    expectError(form, 415, 'unsupported_media_type');
    for (const json of [{}, { password: 12345678 }, { password: null }, ['x']]) {
      expectError(await reauthenticate(app, alice, json), 400, 'invalid_request');
    }
    const malformed = await alice.client.post(app.at('/reauthenticate/'), { body: '{', contentType: 'application/json', bearer: alice.access });
    expectError(malformed, 400, 'invalid_request');
  });

  kit.test('step-up/reauthenticate-throttled', 'reauthenticate spends the login throttle of the client address (429 with Retry-After)', async () => {
    const app = await kit.start({ ...LONG_TOKENS, ...THROTTLED, loginThrottleRate: '3/min' });
    const ip = `198.18.${crypto.getRandomValues(new Uint8Array(1))[0]}.${1 + (crypto.getRandomValues(new Uint8Array(1))[0]! % 254)}`;
    app.secrets.add(ip);
    const headers = { 'x-forwarded-for': ip };
    const alice = await app.login('alice', { headers });
    expectError(await reauthenticate(app, alice, { password: 'wrong-1' }, { headers }), 401, 'invalid_credentials');
    expectError(await reauthenticate(app, alice, { password: 'wrong-2' }, { headers }), 401, 'invalid_credentials');
    const limited = await reauthenticate(app, alice, { password: app.users.passwords.alice }, { headers });
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after') ?? '').toMatch(/^\d+$/);
  });

  kit.test('step-up/reauthenticate-csrf', 'in cookie transport reauthenticate needs the CSRF token (403 csrf_failed without it)', async () => {
    const app = await kit.start({ ...LONG_TOKENS, refreshTokenTransport: 'cookie' });
    const alice = await app.login('alice');
    expectError(await reauthenticate(app, alice, { password: app.users.passwords.alice }), 403, 'csrf_failed');
    const result = await reauthenticate(app, alice, { password: app.users.passwords.alice }, { csrf: true });
    expect(result.status, result.text).toBe(200);
    expect(result.setCookies).toEqual([]);
  });

  kit.test('step-up/refresh-keeps-auth-time', 'a refresh never resets auth_time: a refreshed token of a stale session is still stale', async () => {
    const app = await kit.start({ ...LONG_TOKENS, sensitiveActionMaxAgeSeconds: 600 });
    const before = nowSeconds(app);
    const alice = await app.login('alice');
    const loggedInAt = Number(claimsOf(alice.access).auth_time);
    expect(loggedInAt).toBeGreaterThanOrEqual(before);
    expect(loggedInAt).toBeLessThanOrEqual(nowSeconds(app));
    app.clock.advance(400);
    const refreshed = await app.refresh(alice.client, alice.refresh);
    expect(refreshed.status, refreshed.text).toBe(200);
    const access = String((refreshed.body as Record<string, unknown>).access_token);
    expect(claimsOf(access).auth_time).toBe(loggedInAt);
    app.clock.advance(201);
    expectStale(await alice.client.post(app.at('/logout/others/'), { bearer: access }), 600);
  });

  kit.test(
    'step-up/sensitive-actions-stale',
    'with JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS a stale session cannot end others or change the password until it steps up',
    async () => {
      const app = await kit.start({ ...LONG_TOKENS, sensitiveActionMaxAgeSeconds: 600 });
      const phone = await app.login('alice');
      const laptop = await app.login('alice');
      app.clock.advance(601);
      expectStale(await laptop.client.post(app.at('/logout/others/'), { bearer: laptop.access }), 600);
      expectStale(await laptop.client.post(app.at('/logout/all/'), { bearer: laptop.access }), 600);
      const change = await laptop.client.post('/me/password', {
        json: { current_password: app.users.passwords.alice, new_password: 'another long passphrase' },
        bearer: laptop.access,
      });
      expectStale(change, 600);
      // Nothing ended, nothing changed.
      expect((await phone.client.get('/me', { bearer: phone.access })).status).toBe(200);
      expect((await app.client().post(app.at('/login/'), { json: { username: 'alice', password: app.users.passwords.alice } })).status).toBe(200);
      // A step-up makes the same session fresh: the action goes through.
      expect((await reauthenticate(app, laptop, { password: app.users.passwords.alice })).status).toBe(200);
      expectEmptyOk(await laptop.client.post(app.at('/logout/others/'), { bearer: laptop.access }));
      expect((await phone.client.get('/me', { bearer: phone.access })).status).toBe(401);
      expect((await laptop.client.get('/me', { bearer: laptop.access })).status).toBe(200);
    },
  );

  kit.test('step-up/sensitive-actions-off', 'without the setting nothing changes: no freshness rule, no auth_time or acr claim', async () => {
    const app = await kit.start(LONG_TOKENS);
    const phone = await app.login('alice');
    const laptop = await app.login('alice');
    expect(Object.keys(claimsOf(laptop.access)).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'nbf', 'sid', 'sub']);
    app.clock.advance(3000);
    const refreshed = await app.refresh(laptop.client, laptop.refresh);
    const access = String((refreshed.body as Record<string, unknown>).access_token);
    expect(Object.keys(claimsOf(access)).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'nbf', 'sid', 'sub']);
    const others = await laptop.client.post(app.at('/logout/others/'), { bearer: access });
    expectEmptyOk(others);
    expect(others.headers.get('www-authenticate')).toBeNull();
    expect((await phone.client.get('/me', { bearer: phone.access })).status).toBe(401);
    expectEmptyOk(await laptop.client.post(app.at('/logout/all/'), { bearer: access }));
  });
}
