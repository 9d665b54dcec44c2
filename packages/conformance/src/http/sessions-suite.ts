import type { PublicSession } from '@sessauth/core';
import { expect } from 'vitest';
import type { TestApp } from './conformance-app.js';
import { claimsOf } from './token-forge.js';
import { expectCookieCleared, expectCookieUntouched, expectEmptyOk, expectError } from './expectations.js';
import { field } from './http-client.js';
import { rawRequest } from './raw-http.js';
import type { SuiteKit } from './suite-kit.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** Logs alice in through node:http, which sends no User-Agent at all. Returns the access token. */
async function loginWithoutUserAgent(app: TestApp): Promise<string> {
  const body = JSON.stringify({ username: 'alice', password: app.users.passwords.alice });
  const result = await rawRequest(app.baseUrl, 'POST', app.at('/login/'), { 'content-type': 'application/json' }, body);
  const access = field(JSON.parse(result.text), 'access_token');
  if (result.status !== 200 || typeof access !== 'string') throw new Error(`login answered ${result.status} ${result.text}`);
  app.secrets.add(access);
  return access;
}

/** GET /auth/sessions/ and DELETE /auth/sessions/{id}/. */
export function sessionsSuite(kit: SuiteKit): void {
  kit.test('sessions/list-fields', 'the listing has exactly the contract fields, per active session of the caller', async () => {
    const app = await kit.start();
    const firefox = await app.login('alice', { headers: { 'user-agent': FIREFOX } });
    const longAgent = `sessauth-conformance/1.0 ${'x'.repeat(600)}`;
    const unknown = await app.login('alice', { headers: { 'user-agent': longAgent } });
    const bareSid = claimsOf(await loginWithoutUserAgent(app)).sid;
    await app.login('bob');

    const list = await firefox.client.get(app.at('/sessions/'), { bearer: firefox.access });
    expect(list.status, list.text).toBe(200);
    const sessions = list.body as PublicSession[];
    expect(Array.isArray(sessions)).toBe(true);
    expect(sessions.map((session) => session.id).sort()).toEqual([firefox.sessionId, unknown.sessionId, bareSid].sort());
    const now = app.clock.now().getTime();
    for (const session of sessions) {
      expect(Object.keys(session).sort()).toEqual([
        'browser',
        'created_at',
        'expires_at',
        'id',
        'ip_address',
        'is_current',
        'last_activity_at',
        'location',
        'name',
        'user_agent',
      ]);
      for (const stamp of [session.created_at, session.last_activity_at]) {
        expect(stamp).toMatch(ISO_UTC);
        expect(Math.abs(Date.parse(stamp) - now)).toBeLessThan(60_000);
      }
      expect(session.ip_address).toBe('127.0.0.1');
      expect(session.location).toBeNull();
      expect(session.is_current).toBe(session.id === firefox.sessionId);
    }
    const byId = new Map(sessions.map((session) => [session.id, session]));
    expect(byId.get(firefox.sessionId)?.user_agent).toBe(FIREFOX);
    expect(byId.get(firefox.sessionId)?.browser).toMatch(/^Firefox\b.* on Linux/);
    expect(byId.get(unknown.sessionId)?.user_agent).toBe(longAgent.slice(0, 512));
    expect(byId.get(unknown.sessionId)?.browser).toBeNull();
    expect(byId.get(String(bareSid))).toMatchObject({ user_agent: null, browser: null });

    const fromOther = await unknown.client.get(app.at('/sessions/'), { bearer: unknown.access });
    const current = (fromOther.body as PublicSession[]).filter((session) => session.is_current).map((session) => session.id);
    expect(current).toEqual([unknown.sessionId]);
  });

  kit.test('sessions/empty-user-agent', 'an empty User-Agent is stored as null', async () => {
    const app = await kit.start();
    const alice = await app.login('alice', { headers: { 'user-agent': '' } });
    const list = await alice.client.get(app.at('/sessions/'), { bearer: alice.access });
    expect((list.body as PublicSession[])[0]).toMatchObject({ user_agent: null, browser: null });
  });

  kit.test('sessions/unauthenticated', 'listing without a token is 401', async () => {
    const app = await kit.start();
    const result = await app.client().get(app.at('/sessions/'));
    expect(result.status, result.text).toBe(401);
    expect(result.errorCode).toMatch(/^[a-z_]+$/);
  });

  kit.test('sessions/delete-other-own', "deleting one of the caller's other sessions revokes it at once", async () => {
    const app = await kit.start();
    const phone = await app.login('alice');
    const laptop = await app.login('alice');
    expectEmptyOk(await laptop.client.delete(app.at(`/sessions/${phone.sessionId}/`), { bearer: laptop.access }));
    expect((await phone.client.get('/me', { bearer: phone.access })).status).toBe(401);
    expectError(await app.refresh(phone.client, phone.refresh), 401, 'session_expired');
    const list = await laptop.client.get(app.at('/sessions/'), { bearer: laptop.access });
    expect((list.body as PublicSession[]).map((session) => session.id)).toEqual([laptop.sessionId]);
    expect((await app.store.findSession(phone.sessionId))?.expiredAt).toBeInstanceOf(Date);
  });

  kit.test('sessions/delete-current', 'deleting the current session ends it like a logout', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    expectEmptyOk(await alice.client.delete(app.at(`/sessions/${alice.sessionId}/`), { bearer: alice.access }));
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(401);
    expect((await app.refresh(alice.client, alice.refresh)).status).toBe(401);
  });

  kit.test('sessions/delete-not-found', "another user's, a revoked and a nonexistent id give the same 404", async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const gone = await app.login('alice');
    const bob = await app.login('bob');
    expectEmptyOk(await gone.client.post(app.at('/logout/'), { bearer: gone.access }));
    const answers = [];
    for (const id of [bob.sessionId, gone.sessionId, 'no-such-session-id']) {
      const result = await alice.client.delete(app.at(`/sessions/${id}/`), { bearer: alice.access });
      expectError(result, 404, 'session_not_found');
      answers.push(result.text);
    }
    expect(new Set(answers).size, answers.join('\n')).toBe(1);
    expect((await bob.client.get('/me', { bearer: bob.access })).status).toBe(200);
    expect((await app.refresh(bob.client, bob.refresh)).status).toBe(200);
  });

  kit.test('sessions/delete-clears-cookie', 'in cookie mode deleting the current session clears the refresh cookie, another does not', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const other = await app.login('alice');
    const alice = await app.login('alice');
    const keep = await alice.client.delete(app.at(`/sessions/${other.sessionId}/`), { bearer: alice.access });
    expectEmptyOk(keep);
    expectCookieUntouched(keep, 'refresh_token');
    const own = await alice.client.delete(app.at(`/sessions/${alice.sessionId}/`), { bearer: alice.access });
    expectEmptyOk(own);
    expectCookieCleared(own, 'refresh_token', app.at('/refresh/'));
    expect(alice.client.jar.get('refresh_token')).toBeUndefined();
  });

  kit.test('sessions/delete-unauthenticated', 'DELETE without a token is 401 and revokes nothing', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const result = await app.client().delete(app.at(`/sessions/${alice.sessionId}/`));
    expect(result.status, result.text).toBe(401);
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(200);
  });
}
