import { expect } from 'vitest';
import { expectClientError, expectError } from './expectations.js';
import { field } from './http-client.js';
import { abortedUpload, rawExchange, rawRequest } from './raw-http.js';
import type { SuiteKit } from './suite-kit.js';

const CHROME_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Requests each framework would read its own way, decided once in the core so that
 * every adapter gives the same answer (SPEC: "so that every adapter answers alike").
 */
export function oneAnswerSuite(kit: SuiteKit): void {
  kit.test('one-answer/authorization-comma', "a comma in Authorization (a Fetch runtime's join of two headers) is 401, never 400", async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    for (const value of [`Bearer ${alice.access},`, `Bearer ${alice.access}, Bearer ${alice.access}`, 'Bearer x,', ', Bearer x']) {
      expectError(await rawRequest(app.baseUrl, 'GET', '/me', { authorization: value }), 401, 'invalid_token');
      expectError(await rawRequest(app.baseUrl, 'GET', app.at('/sessions/'), { authorization: value }), 401, 'invalid_token');
    }
    expectError(
      await rawRequest(app.baseUrl, 'GET', '/me', { authorization: [`Bearer ${alice.access}`, `Bearer ${alice.access}`] }),
      401,
      'invalid_token',
    );
    expectError(await rawRequest(app.baseUrl, 'GET', '/me', { authorization: 'Basic YWxpY2U6eA==' }), 400, 'invalid_request');
  });

  kit.test(
    'one-answer/duplicate-user-agent',
    'two User-Agent lines are joined with ", " (as Fetch does): the login succeeds and stores both',
    async () => {
      const app = await kit.start();
      const body = JSON.stringify({ username: 'alice', password: app.users.passwords.alice });
      const login = await rawRequest(
        app.baseUrl,
        'POST',
        app.at('/login/'),
        { 'content-type': 'application/json', 'user-agent': [CHROME_ON_WINDOWS, 'curl/8.5.0'] },
        body,
      );
      expect(login.status, login.text).toBe(200);
      const access = String(field(JSON.parse(login.text), 'access_token'));
      app.secrets.add(access);
      const list = await app.client().get(app.at('/sessions/'), { bearer: access });
      expect(field((list.body as unknown[])[0], 'user_agent')).toBe(`${CHROME_ON_WINDOWS}, curl/8.5.0`);
    },
  );

  kit.test('one-answer/dot-segments', 'dot segments in the target are resolved as a URL parser does, in every adapter', async () => {
    const app = await kit.start();
    const host = new URL(app.baseUrl).host;
    for (const target of [app.at('/./csrf/'), app.at('/%2e/csrf/'), app.at('/x/../csrf/'), app.at('/csrf/.')]) {
      const answer = await rawExchange(app.baseUrl, `GET ${target} HTTP/1.1\r\nHost: ${host}`);
      expect(answer.status, `${target}: ${answer.text}`).toBe(200);
      expect(answer.text).toContain('csrf_token');
    }
  });

  kit.test('one-answer/absolute-form', 'an absolute-form request target (RFC 9112) is routed by its path', async () => {
    const app = await kit.start();
    const host = new URL(app.baseUrl).host;
    const answer = await rawExchange(app.baseUrl, `GET http://${host}${app.at('/csrf/')} HTTP/1.1\r\nHost: ${host}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toContain('csrf_token');
  });

  kit.test(
    'one-answer/optional-guard',
    "the optional guard: a user with a token, none without, the core's 401 for a bad or revoked one",
    async () => {
      const app = await kit.start();
      const alice = await app.login('alice');
      const withUser = await alice.client.get('/me/optional', { bearer: alice.access });
      expect(withUser.status, withUser.text).toBe(200);
      expect(field(withUser.body, 'user')).toEqual({ id: app.users.alice.id, username: 'alice' });
      const anonymous = await app.client().get('/me/optional');
      expect(anonymous.status, anonymous.text).toBe(200);
      expect(field(anonymous.body, 'user')).toBeNull();
      expectError(await app.client().get('/me/optional', { bearer: 'not-a-token' }), 401, 'invalid_token');
      await alice.client.post(app.at('/logout/'), { bearer: alice.access });
      expectError(await alice.client.get('/me/optional', { bearer: alice.access }), 401, 'session_expired');
    },
  );

  kit.test(
    'one-answer/options-to-host',
    'OPTIONS on the auth paths is passed on to the host (its CORS layer answers preflights), never our 405',
    async () => {
      const app = await kit.start();
      for (const path of [app.at('/login/'), app.at('/refresh/'), app.at('/sessions/x/')]) {
        const answer = await rawRequest(app.baseUrl, 'OPTIONS', path, { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' });
        expect(answer.errorCode, `${path}: ${answer.status} ${answer.text}`).not.toBe('method_not_allowed');
        expect(answer.status).not.toBe(405);
      }
    },
  );

  kit.test(
    'one-answer/aborted-upload',
    'a client that aborts its upload is not a server error: nothing at error or warn level, the server serves on',
    async () => {
      const app = await kit.start();
      const host = new URL(app.baseUrl).host;
      for (const path of [app.at('/login/'), app.at('/refresh/')]) {
        await abortedUpload(
          app.baseUrl,
          `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json`,
          4000,
          '{"username":"alice","pass',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(app.logger.eventsAt('error'), app.logger.lines.join('\n')).toEqual([]);
      expect(app.logger.eventsAt('warn'), app.logger.lines.join('\n')).toEqual([]);
      expect((await app.client().get(app.at('/csrf/'))).status).toBe(200);
    },
  );

  kit.test('one-answer/prechecks-before-password', 'a refused request gets the same answer whether its password is right or wrong', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const armed = app.client();
    await armed.fetchCsrf(app.prefix);
    const cookie = armed.jar.headerFor(app.at('/login/')) ?? '';
    const refusals: Array<Record<string, string | string[]>> = [
      { 'content-type': ['application/json', 'application/json'], cookie, 'x-csrftoken': armed.csrfToken ?? '' },
      { 'content-type': 'application/json', cookie },
      { 'content-type': 'application/json', cookie, 'x-csrftoken': [armed.csrfToken ?? '', armed.csrfToken ?? ''] },
      { 'content-type': 'application/json', cookie, 'x-csrftoken': armed.csrfToken ?? '', origin: 'https://evil.example' },
    ];
    for (const headers of refusals) {
      const answers = [];
      for (const password of [app.users.passwords.alice, 'wrong-password']) {
        answers.push(await rawRequest(app.baseUrl, 'POST', app.at('/login/'), headers, JSON.stringify({ username: 'alice', password })));
      }
      expectClientError(answers[0]!, [400, 403, 415], JSON.stringify(headers));
      expect({ status: answers[1]!.status, text: answers[1]!.text }).toEqual({ status: answers[0]!.status, text: answers[0]!.text });
    }
    const list = await app.client().post(app.at('/login/'), {
      json: { username: 'alice', password: app.users.passwords.alice },
      headers: { 'x-csrftoken': armed.csrfToken ?? '', cookie },
    });
    expect(list.status, 'and none of them left a session behind: only this one exists').toBe(200);
    const sessions = await app.client().get(app.at('/sessions/'), { bearer: String(field(list.body, 'access_token')) });
    expect(Array.isArray(sessions.body) && sessions.body.length).toBe(1);
  });
}
