import { expect } from 'vitest';
import { expectError, expectNoStore } from './expectations.js';
import { field, type HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

/** Response headers of every auth endpoint, and the router's 404/405. */
export function headersSuite(kit: SuiteKit): void {
  kit.test('headers/no-store', 'every auth response carries Cache-Control: no-store and Pragma: no-cache', async () => {
    for (const transport of ['body', 'cookie'] as const) {
      const app = await kit.start({ refreshTokenTransport: transport });
      const alice = await app.login('alice');
      const other = await app.login('alice');
      const client = app.client();
      const csrf = await client.get(app.at('/csrf/'));
      client.csrfToken = String(field(csrf.body, 'csrf_token'));
      const seen: Array<[string, HttpResult]> = [
        ['csrf', csrf],
        ['login 200', alice.result],
        ['login 401', await client.post(app.at('/login/'), { json: { username: 'alice', password: 'wrong' }, csrf: true })],
        ['login 415', await client.post(app.at('/login/'), { body: '{}', contentType: 'text/plain' })],
        ['login 400', await client.post(app.at('/login/'), { body: '{', contentType: 'application/json', csrf: true })],
        ['refresh 200', await app.refresh(alice.client, alice.refresh)],
        ['refresh 401', await app.refresh(client, 'garbage')],
        ['sessions 200', await alice.client.get(app.at('/sessions/'), { bearer: alice.access })],
        ['sessions 401', await client.get(app.at('/sessions/'))],
        ['delete 404', await alice.client.delete(app.at('/sessions/nope/'), { bearer: alice.access })],
        ['delete 200', await alice.client.delete(app.at(`/sessions/${other.sessionId}/`), { bearer: alice.access })],
        ['unknown 404', await client.get(app.at('/no-such-endpoint/'))],
        ['405', await client.get(app.at('/login/'))],
        ['logout 200', await alice.client.post(app.at('/logout/'), { bearer: alice.access })],
        ['logout 401', await client.post(app.at('/logout/'), { bearer: alice.access })],
        ['logout/all 401', await client.post(app.at('/logout/all/'))],
      ];
      if (transport === 'cookie') seen.push(['login 403', await client.post(app.at('/login/'), { json: {} })]);
      const after = await app.login('bob');
      seen.push(['logout/all 200', await after.client.post(app.at('/logout/all/'), { bearer: after.access })]);
      for (const [what, result] of seen) expectNoStore(result, `${transport}: ${what}`);
      expect(seen.filter(([, result]) => result.status >= 500).map(([what]) => what)).toEqual([]);
    }
  });

  kit.test('headers/json-errors', 'error bodies are JSON objects with error_code', async () => {
    const app = await kit.start();
    const result = await app.client().post(app.at('/login/'), { json: { username: 'alice', password: 'wrong' } });
    expect(result.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
    expect(result.body).toMatchObject({ error_code: 'invalid_credentials' });
  });

  kit.test('headers/unknown-path', 'an unknown path under the prefix is 404 not_found', async () => {
    const app = await kit.start();
    const client = app.client();
    for (const path of ['/nope/', '/login/extra/', '/sessions/a/b/', '/']) {
      const result = await client.get(app.at(path));
      expectError(result, 404, 'not_found');
      expectNoStore(result, `GET ${app.at(path)}`);
    }
  });

  kit.test('headers/wrong-method', 'a known path with the wrong method is 405 method_not_allowed', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const client = alice.client;
    const cases: Array<[string, string]> = [
      ['GET', '/login/'],
      ['PUT', '/login/'],
      ['GET', '/refresh/'],
      ['POST', '/csrf/'],
      ['POST', '/sessions/'],
      ['GET', '/logout/'],
      ['GET', '/logout/all/'],
      ['POST', `/sessions/${alice.sessionId}/`],
    ];
    for (const [method, path] of cases) {
      const result = await client.send(method, app.at(path), { bearer: alice.access });
      expectError(result, 405, 'method_not_allowed');
      expectNoStore(result, `${method} ${path}`);
    }
    // None of them acted: the session is still active.
    expect((await client.get('/me', { bearer: alice.access })).status).toBe(200);
  });

  kit.test('headers/outside-prefix', 'paths outside the prefix reach the host app', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const me = await alice.client.get('/me', { bearer: alice.access });
    expect(me.status, me.text).toBe(200);
    expect((await alice.client.get('/authx/login/')).errorCode).toBeUndefined();
  });
}
