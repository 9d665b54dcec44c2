import { expect } from 'vitest';
import { expectClientError, expectError } from './expectations.js';
import type { HttpResult } from './http-client.js';
import { rawRequest } from './raw-http.js';
import type { SuiteKit } from './suite-kit.js';

/** Client input the engine must refuse with a 4xx and a code, never a 500. */
export function hostileInputSuite(kit: SuiteKit): void {
  kit.test('hostile/login-bodies', 'NUL bytes, lone surrogates and odd shapes in a login body are 4xx', async () => {
    const app = await kit.start();
    const client = app.client();
    const password = app.users.passwords.alice;
    const bodies: string[] = [
      JSON.stringify({ username: 'al\u0000ice', password }),
      JSON.stringify({ username: 'alice', password: `${password}\u0000` }),
      JSON.stringify({ username: '\ud800', password }),
      JSON.stringify({ username: 'alice', password: '\udfff' }),
      '{"username":"\\ud800alice","password":"\\udc00"}',
      JSON.stringify({ username: { $gt: '' }, password }),
      `{"__proto__":{"username":"alice"},"password":${JSON.stringify(password)}}`,
      `{"username":"alice","password":"wrong","constructor":{"prototype":{"admin":true}}}`,
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      `{"username":${'['.repeat(3000)}${']'.repeat(3000)},"password":"x"}`,
      '\ufeff{"username":"alice","password":"x"}',
      JSON.stringify({ username: 'alice', password: 1e400 }),
    ];
    for (const body of bodies) {
      const result = await client.post(app.at('/login/'), { body, contentType: 'application/json' });
      expectClientError(result, [400, 401], body);
    }
    // The prototype-polluting body above must not have changed the engine's objects.
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  kit.test('hostile/non-utf8', 'a body that is not UTF-8 is a 4xx', async () => {
    const app = await kit.start();
    const body = Uint8Array.from([0x7b, 0x22, 0x75, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]);
    expectClientError(await app.client().post(app.at('/login/'), { body, contentType: 'application/json' }), [400, 401]);
  });

  kit.test('hostile/refresh-bodies', 'hostile refresh tokens are 4xx with a code', async () => {
    const app = await kit.start();
    const client = app.client();
    const tokens = ['a'.repeat(9000), '\ud800', 'a.b.c\u0000', '.'.repeat(3), `${'eyJ'.repeat(100)}..`, ' '];
    for (const token of tokens) {
      expectClientError(await client.post(app.at('/refresh/'), { json: { refresh_token: token } }), [400, 401], token);
    }
    expectError(await client.post(app.at('/refresh/'), { json: { refresh_token: 'a'.repeat(9000) } }), 401, 'invalid_token');
  });

  kit.test('hostile/headers', 'huge or odd Authorization, cookie and CSRF headers are 4xx', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const client = app.client();
    await client.fetchCsrf(app.prefix);
    const csrf = `csrftoken=${client.jar.get('csrftoken') ?? ''}`;
    const refreshWith = (cookie: string) => client.post(app.at('/refresh/'), { json: {}, csrf: true, headers: { cookie } });
    const results: Array<[string, HttpResult]> = [
      ['huge bearer', await client.get('/me', { bearer: 'a'.repeat(12_000) })],
      ['huge bearer on sessions', await client.get(app.at('/sessions/'), { bearer: 'a'.repeat(12_000) })],
      ['many spaces', await client.get('/me', { headers: { authorization: `Bearer${' '.repeat(5000)}x` } })],
      ['odd cookies', await refreshWith(`=;;;=a; ${csrf}; refresh_token; ;=`)],
      ['huge cookie', await refreshWith(`${csrf}; refresh_token=${'a'.repeat(9000)}`)],
      ['percent cookie', await refreshWith(`${csrf}; refresh_token=%E0%A4%A`)],
      ['quoted cookie', await refreshWith(`${csrf}; refresh_token="a.b.c"`)],
      ['huge csrf', await client.post(app.at('/login/'), { json: {}, headers: { 'x-csrftoken': 'a'.repeat(8000) } })],
      ['percent csrf cookie', await client.post(app.at('/login/'), { json: {}, csrf: true, headers: { cookie: 'csrftoken=%ZZ' } })],
    ];
    for (const [what, result] of results) {
      expect(result.status, `${what}: ${result.text}`).toBeGreaterThanOrEqual(400);
      expect(result.status, `${what}: ${result.text}`).toBeLessThan(500);
      expect(result.errorCode, what).toMatch(/^[a-z_]+$/);
    }
  });

  kit.test('hostile/session-ids', 'odd session ids in DELETE are 404 (or 400), never 500', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const ids = ['%00', '%ZZ', '%F0%9F%98%80', 'a'.repeat(400), '..%2F..%2Fetc', '%2e%2e', "'%20OR%201=1--", '%ED%A0%80'];
    for (const id of ids) {
      const result = await alice.client.delete(app.at(`/sessions/${id}/`), { bearer: alice.access });
      expectClientError(result, [400, 404], id);
    }
    const raw = await rawRequest(app.baseUrl, 'DELETE', app.at('/sessions/%C0%AF/'), { authorization: `Bearer ${alice.access}` });
    expectClientError(raw, [400, 404]);
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(200);
  });
}
