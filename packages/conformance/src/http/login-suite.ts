import { decodeProtectedHeader } from 'jose';
import { expect } from 'vitest';
import { expectError } from './expectations.js';
import type { SuiteKit } from './suite-kit.js';
import { claimsOf } from './token-forge.js';

/** POST /auth/login/: the (none) -> active row of the state table, credentials and body rules. */
export function loginSuite(kit: SuiteKit): void {
  kit.test('login/success', 'login creates an active session with an access and a refresh token', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    expect(Object.keys(alice.result.body as object).sort()).toEqual(['access_token', 'refresh_token']);
    expect(decodeProtectedHeader(alice.access).typ).toBe('at+jwt');
    expect(decodeProtectedHeader(alice.refresh).typ).toBe('rt+jwt');
    const access = claimsOf(alice.access);
    const refresh = claimsOf(alice.refresh);
    expect(access).toMatchObject({ iss: 'https://issuer.test', aud: 'sessauth-conformance', sub: app.users.alice.id });
    expect(access.nbf).toBe(access.iat);
    expect((access.exp ?? 0) - (access.iat ?? 0)).toBe(300);
    expect(typeof access.jti).toBe('string');
    expect(refresh).toMatchObject({ sub: app.users.alice.id, sid: alice.sessionId });
    expect(typeof refresh.jti).toBe('string');

    const me = await alice.client.get('/me', { bearer: alice.access });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toEqual({ user: { id: app.users.alice.id, username: 'alice' }, session: { id: alice.sessionId } });
    const record = await app.store.findSession(alice.sessionId);
    expect(record).toMatchObject({ userId: app.users.alice.id, expiredAt: null });
  });

  kit.test('login/one-session-per-login', 'each login is its own session', async () => {
    const app = await kit.start();
    const first = await app.login('alice');
    const second = await app.login('alice');
    expect(second.sessionId).not.toBe(first.sessionId);
    const list = await first.client.get(app.at('/sessions/'), { bearer: first.access });
    const ids = (list.body as Array<{ id: string }>).map((session) => session.id);
    expect(ids.sort()).toEqual([first.sessionId, second.sessionId].sort());
  });

  kit.test('login/invalid-credentials', 'wrong password, unknown user and over-long input are invalid_credentials', async () => {
    const app = await kit.start();
    const client = app.client();
    const attempts = [
      { username: 'alice', password: `${app.users.passwords.alice}x` },
      { username: 'alice', password: app.users.passwords.bob },
      { username: 'mallory', password: app.users.passwords.alice },
      { username: 'alice', password: 'p'.repeat(1025) },
      { username: 'a'.repeat(255), password: app.users.passwords.alice },
      { username: 'ALICE', password: app.users.passwords.alice },
      { username: 'alice', password: '' },
    ];
    for (const body of attempts) {
      expectError(await client.post(app.at('/login/'), { json: body }), 401, 'invalid_credentials');
    }
  });

  kit.test('login/inactive-user', 'an inactive user cannot log in', async () => {
    const app = await kit.start();
    app.users.alice.active = false;
    const result = await app.client().post(app.at('/login/'), {
      json: { username: 'alice', password: app.users.passwords.alice },
    });
    expectError(result, 401, ['invalid_credentials', 'invalid_user']);
  });

  kit.test('login/field-types', 'wrong field types are 400 invalid_request', async () => {
    const app = await kit.start();
    const client = app.client();
    const password = app.users.passwords.alice;
    const bodies = [
      { username: 1, password },
      { username: 'alice', password: [password] },
      { username: null, password },
      { username: 'alice', password: { value: password } },
      { username: ['alice'], password },
    ];
    for (const json of bodies) expectError(await client.post(app.at('/login/'), { json }), 400, 'invalid_request');
  });

  kit.test('login/not-an-object', 'a JSON body that is not an object is 400 invalid_request', async () => {
    const app = await kit.start();
    const client = app.client();
    for (const body of ['[]', '"alice"', 'null', '42', 'true', '[{"username":"alice"}]']) {
      const result = await client.post(app.at('/login/'), { body, contentType: 'application/json' });
      expectError(result, 400, 'invalid_request');
    }
  });

  kit.test('login/malformed-json', 'malformed JSON is 400 invalid_request', async () => {
    const app = await kit.start();
    const client = app.client();
    for (const body of ['{"username":', '{username: "alice"}', '{"a":1}x', "{'a':1}", '\u0000']) {
      const result = await client.post(app.at('/login/'), { body, contentType: 'application/json' });
      expectError(result, 400, 'invalid_request');
    }
  });

  kit.test('login/max-active-sessions', 'beyond maxActiveSessions the oldest session is revoked', async () => {
    const app = await kit.start({ maxActiveSessions: 2 });
    const first = await app.login('alice');
    const second = await app.login('alice');
    const bob = await app.login('bob');
    const third = await app.login('alice');
    expect((await first.client.get('/me', { bearer: first.access })).status).toBe(401);
    expect((await app.refresh(first.client, first.refresh)).status).toBe(401);
    for (const live of [second, third, bob]) {
      expect((await live.client.get('/me', { bearer: live.access })).status).toBe(200);
    }
    const list = await third.client.get(app.at('/sessions/'), { bearer: third.access });
    const ids = (list.body as Array<{ id: string }>).map((session) => session.id);
    expect(ids.sort()).toEqual([second.sessionId, third.sessionId].sort());
  });
}
