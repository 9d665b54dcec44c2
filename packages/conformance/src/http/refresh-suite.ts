import { expect } from 'vitest';
import type { LoggedIn, TestApp } from './conformance-app.js';
import { expectError } from './expectations.js';
import { field } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';
import { claimsOf } from './token-forge.js';

interface Pair {
  readonly access: string;
  readonly refresh: string;
}

function pairOf(body: unknown): Pair {
  const access = field(body, 'access_token');
  const refresh = field(body, 'refresh_token');
  if (typeof access !== 'string' || typeof refresh !== 'string') throw new Error(`no token pair in ${JSON.stringify(body)}`);
  return { access, refresh };
}

/** The ids a live session of the same user sees in GET /auth/sessions/. */
async function listedIds(app: TestApp, viewer: LoggedIn): Promise<string[]> {
  const list = await viewer.client.get(app.at('/sessions/'), { bearer: viewer.access });
  expect(list.status, list.text).toBe(200);
  return (list.body as Array<{ id: string }>).map((session) => session.id);
}

/** POST /auth/refresh/: the rotation and reuse rows of the state table. */
export function refreshSuite(kit: SuiteKit): void {
  kit.test('refresh/rotates', 'a refresh returns a new pair for the same session and keeps it active', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    app.clock.advance(100);
    const result = await app.refresh(alice.client, alice.refresh);
    expect(result.status, result.text).toBe(200);
    expect(Object.keys(result.body as object).sort()).toEqual(['access_token', 'refresh_token']);
    const next = pairOf(result.body);
    expect(next.refresh).not.toBe(alice.refresh);
    expect(claimsOf(next.refresh).jti).not.toBe(claimsOf(alice.refresh).jti);
    expect(claimsOf(next.refresh).sid).toBe(alice.sessionId);
    expect(claimsOf(next.access).sid).toBe(alice.sessionId);
    const me = await alice.client.get('/me', { bearer: next.access });
    expect(me.body).toMatchObject({ session: { id: alice.sessionId } });
    // A refresh is activity: last_activity_at moves with it.
    const [listed] = (await alice.client.get(app.at('/sessions/'), { bearer: next.access })).body as Array<Record<string, string>>;
    expect(Date.parse(listed?.last_activity_at ?? '') - Date.parse(listed?.created_at ?? '')).toBeGreaterThanOrEqual(99_000);
    const again = await app.refresh(alice.client, next.refresh);
    expect(again.status, again.text).toBe(200);
  });

  kit.test('refresh/replay-is-reuse', 'replaying a consumed refresh token revokes the whole session', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const other = await app.login('alice');
    const next = pairOf((await app.refresh(alice.client, alice.refresh)).body);

    expectError(await app.refresh(alice.client, alice.refresh), 401, 'token_reuse_detected');
    expect(await listedIds(app, other)).toEqual([other.sessionId]);
    expect((await alice.client.get('/me', { bearer: next.access })).status).toBe(401);
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(401);
    expectError(await app.refresh(alice.client, next.refresh), 401, 'session_expired');
    expect((await app.store.findSession(alice.sessionId))?.expiredAt).toBeInstanceOf(Date);
  });

  kit.test('refresh/concurrent', 'concurrent use of one refresh token: one winner, then the winner is revoked too', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        app.client().post(app.at('/refresh/'), {
          json: { refresh_token: alice.refresh },
        }),
      ),
    );
    const winners = results.filter((result) => result.status === 200);
    expect(winners, results.map((result) => `${result.status} ${result.text}`).join('\n')).toHaveLength(1);
    const losers = results.filter((result) => result.status !== 200);
    for (const loser of losers) expectError(loser, 401, ['token_reuse_detected', 'session_expired']);
    expect(losers.map((loser) => loser.errorCode)).toContain('token_reuse_detected');

    const winner = pairOf(winners[0]?.body);
    expectError(await app.refresh(alice.client, winner.refresh), 401, 'session_expired');
    expect((await alice.client.get('/me', { bearer: winner.access })).status).toBe(401);
  });

  kit.test('refresh/session-lifetime', 'a session past its lifetime cannot refresh (session_expired)', async () => {
    const app = await kit.start({ sessionExpireSeconds: 600 });
    const alice = await app.login('alice');
    app.clock.advance(595); // a few real seconds may pass on a busy machine
    const fresh = await app.refresh(alice.client, alice.refresh);
    expect(fresh.status, fresh.text).toBe(200);
    app.clock.advance(6);
    expectError(await app.refresh(alice.client, pairOf(fresh.body).refresh), 401, 'session_expired');
  });

  kit.test('refresh/security-stamp', 'a changed security stamp refuses the refresh and revokes the session', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const bob = await app.login('bob');
    app.users.alice.stamp = 'rotated-after-password-change';
    const result = await app.refresh(alice.client, alice.refresh);
    expect(result.status, result.text).toBe(401);
    expect(result.errorCode).toMatch(/^[a-z_]+$/);
    expect((await app.store.findSession(alice.sessionId))?.expiredAt).toBeInstanceOf(Date);
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(401);
    expect((await app.refresh(bob.client, bob.refresh)).status).toBe(200);
  });

  kit.test('refresh/inactive-user', 'an inactive user gets invalid_user on refresh and on protected routes', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    app.users.alice.active = false;
    expectError(await alice.client.get('/me', { bearer: alice.access }), 401, 'invalid_user');
    expectError(await alice.client.get(app.at('/sessions/'), { bearer: alice.access }), 401, 'invalid_user');
    expectError(await app.refresh(alice.client, alice.refresh), 401, 'invalid_user');
  });

  kit.test('refresh/body-rules', 'malformed refresh bodies are 400 invalid_request', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const client = app.client();
    for (const body of ['{"refresh_token":', '[]', '"token"', 'null', '{"refresh_token": 123}', '{"refresh_token": ["a"]}']) {
      expectError(await client.post(app.at('/refresh/'), { body, contentType: 'application/json' }), 400, 'invalid_request');
    }
    const missing = await client.post(app.at('/refresh/'), { json: {} });
    expectError(missing, missing.status === 400 ? 400 : 401, ['invalid_request', 'invalid_token']);
    // Refused requests changed nothing: the token still rotates.
    expect((await app.refresh(alice.client, alice.refresh)).status).toBe(200);
  });
}
