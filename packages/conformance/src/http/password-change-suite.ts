import { expect } from 'vitest';
import { expectEmptyOk, expectError, expectNoStore } from './expectations.js';
import type { HttpClient } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

const NEW_PASSWORD = 'a brand new passphrase';

function changePassword(client: HttpClient, access: string, json: unknown) {
  return client.post('/me/password', { json, bearer: access });
}

/**
 * `POST /me/password` through `auth.changePassword`: a stolen access token alone cannot
 * change the password; the current one is re-checked under the login throttle.
 */
export function passwordChangeSuite(kit: SuiteKit): void {
  kit.test('password/change', 'the right current password changes it and ends every session; the new one logs in', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const other = await app.login('alice');
    app.secrets.add(NEW_PASSWORD);
    const changed = await changePassword(alice.client, alice.access, { current_password: app.users.passwords.alice, new_password: NEW_PASSWORD });
    expectEmptyOk(changed);
    expectNoStore(changed, 'POST /me/password');
    for (const session of [alice, other]) expect((await session.client.get('/me', { bearer: session.access })).status).toBe(401);
    expectError(await app.refresh(other.client, other.refresh), 401, 'session_expired');
    const old = await app.client().post(app.at('/login/'), { json: { username: 'alice', password: app.users.passwords.alice } });
    expectError(old, 401, 'invalid_credentials');
    const fresh = await app.client().post(app.at('/login/'), { json: { username: 'alice', password: NEW_PASSWORD } });
    expect(fresh.status, fresh.text).toBe(200);
  });

  kit.test('password/wrong-current', 'a wrong current password is 401 invalid_credentials and changes nothing', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const wrongs = [
      { current_password: 'not-it', new_password: NEW_PASSWORD },
      { current_password: app.users.passwords.bob, new_password: NEW_PASSWORD },
    ];
    for (const json of wrongs) expectError(await changePassword(alice.client, alice.access, json), 401, 'invalid_credentials');
    expect((await alice.client.get('/me', { bearer: alice.access })).status, 'the session lives on').toBe(200);
  });

  kit.test(
    'password/bad-input',
    'non-JSON is 415; a missing field or a new password outside 8..max characters is 400, before the password check',
    async () => {
      const app = await kit.start();
      const alice = await app.login('alice');
      const current = app.users.passwords.alice;
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
        const body = JSON.stringify({ current_password: current, new_password: NEW_PASSWORD });
        expectError(await alice.client.post('/me/password', { body, contentType, bearer: alice.access }), 415, 'unsupported_media_type');
      }
      const bad: unknown[] = [
        { new_password: NEW_PASSWORD },
        { current_password: current },
        { current_password: current, new_password: 'short' },
        { current_password: 'wrong', new_password: 'short' },
        { current_password: current, new_password: 'x'.repeat(1025) },
        { current_password: current, new_password: 12345678 },
        [current, NEW_PASSWORD],
      ];
      for (const json of bad) expectError(await changePassword(alice.client, alice.access, json), 400, 'invalid_request');
      expectError(
        await alice.client.post('/me/password', { body: '{"current_password":', contentType: 'application/json', bearer: alice.access }),
        400,
        'invalid_request',
      );
      expect((await alice.client.get('/me', { bearer: alice.access })).status, 'nothing changed').toBe(200);
    },
  );

  kit.test('password/needs-access-token', 'without a valid access token the route answers 401 before anything else', async () => {
    const app = await kit.start();
    const result = await app.client().post('/me/password', { json: { current_password: app.users.passwords.alice, new_password: NEW_PASSWORD } });
    expectError(result, 401, 'invalid_token');
  });

  kit.test('password/throttled', 'guesses of the current password spend the login budget: 429 over it', async () => {
    const app = await kit.start({ loginThrottleRate: '3/min' });
    const alice = await app.login('alice');
    for (let i = 0; i < 2; i++) {
      expectError(
        await changePassword(alice.client, alice.access, { current_password: `guess-${i}`, new_password: NEW_PASSWORD }),
        401,
        'invalid_credentials',
      );
    }
    const over = await changePassword(alice.client, alice.access, { current_password: app.users.passwords.alice, new_password: NEW_PASSWORD });
    expectError(over, 429, 'rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await alice.client.get('/me', { bearer: alice.access })).status, 'the throttled right guess changed nothing').toBe(200);
  });
}
