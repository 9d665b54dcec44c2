import { expect } from 'vitest';
import type { TestApp } from './conformance-app.js';
import { cookieNamed, expectError, expectNoStore } from './expectations.js';
import { field, type HttpClient, type HttpResult } from './http-client.js';
import { rawRequest } from './raw-http.js';
import type { SuiteKit } from './suite-kit.js';

function loginAs(app: TestApp, client: HttpClient, headers: Record<string, string> = {}): Promise<HttpResult> {
  return client.post(app.at('/login/'), { json: { username: 'alice', password: app.users.passwords.alice }, headers });
}

/** A client holding a CSRF cookie and its masked token. */
async function armed(app: TestApp): Promise<{ client: HttpClient; token: string; secret: string }> {
  const client = app.client();
  const token = await client.fetchCsrf(app.prefix);
  return { client, token, secret: client.jar.get('csrftoken') ?? '' };
}

/** CSRF in cookie and both modes: the browser flow of the seed. */
export function csrfSuite(kit: SuiteKit): void {
  kit.test('csrf/endpoint', 'GET /auth/csrf/ sets the csrftoken cookie and returns a masked token', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const client = app.client();
    const result = await client.get(app.at('/csrf/'));
    expect(result.status, result.text).toBe(200);
    expectNoStore(result, 'GET /auth/csrf/');
    const token = field(result.body, 'csrf_token');
    expect(typeof token).toBe('string');
    const cookie = cookieNamed(result, 'csrftoken');
    expect(cookie?.value.length).toBeGreaterThan(0);
    const again = await client.get(app.at('/csrf/'));
    // Masked per response (BREACH): the same secret never shows the same token twice.
    expect(field(again.body, 'csrf_token')).not.toBe(token);
  });

  kit.test('csrf/masked-token', 'login with the masked token from GET /auth/csrf/ passes', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const { client, token } = await armed(app);
    const result = await loginAs(app, client, { 'x-csrftoken': token });
    expect(result.status, result.text).toBe(200);
  });

  kit.test('csrf/unmasked-secret', 'the unmasked secret (the cookie value) in X-CSRFToken passes', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const { client, secret } = await armed(app);
    const result = await loginAs(app, client, { 'x-csrftoken': secret });
    expect(result.status, result.text).toBe(200);
  });

  kit.test('csrf/missing-or-wrong', 'no header, no cookie, a wrong or a foreign token: 403 csrf_failed', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const { client, token } = await armed(app);
    const stranger = await armed(app);
    expectError(await loginAs(app, client), 403, 'csrf_failed');
    expectError(await loginAs(app, client, { 'x-csrftoken': 'a'.repeat(token.length) }), 403, 'csrf_failed');
    expectError(await loginAs(app, client, { 'x-csrftoken': stranger.token }), 403, 'csrf_failed');
    expectError(await loginAs(app, client, { 'x-csrftoken': '' }), 403, 'csrf_failed');
    expectError(await loginAs(app, client, { 'x-csrftoken': `${token}x` }), 403, 'csrf_failed');
    const cookieless = await app.client().post(app.at('/login/'), {
      json: { username: 'alice', password: app.users.passwords.alice },
      headers: { 'x-csrftoken': token },
    });
    expectError(cookieless, 403, 'csrf_failed');
    // The refusals changed nothing: the right token still works.
    expect((await loginAs(app, client, { 'x-csrftoken': token })).status).toBe(200);
  });

  kit.test('csrf/origin', 'a same-origin Origin passes, a foreign or null Origin fails', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const { client, token } = await armed(app);
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.evil.example', 'http://localhost:1']) {
      expectError(await loginAs(app, client, { 'x-csrftoken': token, origin }), 403, 'csrf_failed');
    }
    const same = await loginAs(app, client, { 'x-csrftoken': token, origin: new URL(app.baseUrl).origin });
    expect(same.status, same.text).toBe(200);
  });

  kit.test('csrf/duplicate-cookie', 'two csrftoken cookies fail closed, whichever comes first', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const { client, token, secret } = await armed(app);
    const other = (await armed(app)).secret;
    for (const cookie of [
      `csrftoken=${secret}; csrftoken=${other}`,
      `csrftoken=${other}; csrftoken=${secret}`,
      `csrftoken=${secret}; csrftoken=${secret}`,
    ]) {
      expectError(await loginAs(app, client, { 'x-csrftoken': token, cookie }), 403, 'csrf_failed');
    }
  });

  kit.test('csrf/refresh', 'cookie mode: refresh without the CSRF header is 403 and consumes nothing', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const alice = await app.login('alice');
    await alice.client.fetchCsrf(app.prefix);
    expectError(await alice.client.post(app.at('/refresh/'), { json: {} }), 403, 'csrf_failed');
    const ok = await alice.client.post(app.at('/refresh/'), { json: {}, csrf: true });
    expect(ok.status, ok.text).toBe(200);
  });

  kit.test('csrf/both-no-bypass', 'both mode: a refresh token in the body does not bypass CSRF', async () => {
    const app = await kit.start({ refreshTokenTransport: 'both' });
    const alice = await app.login('alice');
    const bare = app.client();
    expectError(await bare.post(app.at('/refresh/'), { json: { refresh_token: alice.refresh } }), 403, 'csrf_failed');
    expectError(await bare.post(app.at('/login/'), { json: { username: 'alice', password: app.users.passwords.alice } }), 403, 'csrf_failed');
    expect((await app.refresh(alice.client, alice.refresh)).status).toBe(200);
  });

  kit.test('csrf/allowed-hosts', 'with JWT_ALLOWED_HOSTS a forged Host makes no origin its own; a listed one does', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie', allowedHosts: ['app.example.test'] });
    const { client, token } = await armed(app);
    const cookie = client.jar.headerFor(app.at('/login/')) ?? '';
    const body = JSON.stringify({ username: 'alice', password: app.users.passwords.alice });
    const send = (host: string, origin: string) =>
      rawRequest(app.baseUrl, 'POST', app.at('/login/'), { host, origin, cookie, 'x-csrftoken': token, 'content-type': 'application/json' }, body);
    expectError(await send('evil.example', 'http://evil.example'), 403, 'csrf_failed');
    const own = new URL(app.baseUrl);
    expectError(await send(own.host, own.origin), 403, 'csrf_failed');
    const listed = await send('app.example.test', 'http://app.example.test');
    expect(listed.status, listed.text).toBe(200);
  });

  kit.test(
    'csrf/ambiguous-forwarded-proto',
    'an ambiguous X-Forwarded-Proto from a trusted proxy counts as HTTPS: a Referer is then required',
    async () => {
      const app = await kit.start({ refreshTokenTransport: 'cookie', trustedProxyCidrs: ['127.0.0.1/32'] });
      const { client, token } = await armed(app);
      const cookie = client.jar.headerFor(app.at('/login/')) ?? '';
      const body = JSON.stringify({ username: 'alice', password: app.users.passwords.alice });
      const send = (proto: string | string[]) =>
        rawRequest(
          app.baseUrl,
          'POST',
          app.at('/login/'),
          { 'x-forwarded-proto': proto, cookie, 'x-csrftoken': token, 'content-type': 'application/json' },
          body,
        );
      for (const proto of ['https, http', 'http, https', ['http', 'https'], 'gopher']) {
        expectError(await send(proto), 403, 'csrf_failed');
      }
      const plain = await send('http');
      expect(plain.status, plain.text).toBe(200);
    },
  );

  kit.test('csrf/logged-reason', 'a CSRF refusal is logged at warn level with the rule that failed, never a token', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const { client, token } = await armed(app);
    const reasons = () => app.logger.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === 'csrf_failed');
    await loginAs(app, client);
    await loginAs(app, client, { 'x-csrftoken': 'b'.repeat(64) });
    await loginAs(app, app.client(), { 'x-csrftoken': token });
    await loginAs(app, client, { 'x-csrftoken': token, origin: 'https://spa.example' });
    expect(reasons().map((line) => [line.level, line.reason])).toEqual([
      ['warn', 'no_header'],
      ['warn', 'mismatch'],
      ['warn', 'no_cookie'],
      ['warn', 'origin_refused'],
    ]);
    // A missing cookie is most often a cross-site set-up, not an attack: the line says so.
    expect(reasons()[2]).toMatchObject({ likely_cause: expect.stringContaining('SameSite'), hint: expect.stringContaining('two sites') });
    expect(reasons()[3]).toMatchObject({ origin: 'https://spa.example', hint: expect.stringContaining('JWT_CSRF_TRUSTED_ORIGINS') });
  });

  kit.test('csrf/body-mode-off', 'body mode needs no CSRF token', async () => {
    const app = await kit.start();
    const result = await loginAs(app, app.client(), { origin: 'https://evil.example' });
    expect(result.status, result.text).toBe(200);
  });
}
