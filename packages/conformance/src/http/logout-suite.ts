import { expect } from 'vitest';
import type { LoggedIn, TestApp } from './conformance-app.js';
import { expectCookieCleared, expectEmptyOk, expectError } from './expectations.js';
import type { SuiteKit } from './suite-kit.js';

async function expectDead(app: TestApp, who: LoggedIn): Promise<void> {
  expect((await who.client.get('/me', { bearer: who.access })).status).toBe(401);
  expect((await app.refresh(who.client, who.refresh)).status).toBe(401);
}

async function expectAlive(who: LoggedIn): Promise<void> {
  expect((await who.client.get('/me', { bearer: who.access })).status).toBe(200);
}

/** POST /auth/logout/, POST /auth/logout/all/, invalidate-all and purge. */
export function logoutSuite(kit: SuiteKit): void {
  kit.test('logout/current', 'logout ends only the current session, with an empty 200', async () => {
    const app = await kit.start();
    const phone = await app.login('alice');
    const laptop = await app.login('alice');
    expectEmptyOk(await phone.client.post(app.at('/logout/'), { bearer: phone.access }));
    await expectDead(app, phone);
    await expectAlive(laptop);
    expect((await app.refresh(laptop.client, laptop.refresh)).status).toBe(200);
  });

  kit.test('logout/revoked-stays-revoked', 'nothing revives a revoked session', async () => {
    const app = await kit.start();
    const gone = await app.login('alice');
    const live = await app.login('alice');
    expectEmptyOk(await gone.client.post(app.at('/logout/'), { bearer: gone.access }));
    const revokedAt = (await app.store.findSession(gone.sessionId))?.expiredAt;
    expect(revokedAt).toBeInstanceOf(Date);
    app.clock.advance(120);
    expect((await gone.client.post(app.at('/logout/'), { bearer: gone.access })).status).toBe(401);
    expect((await gone.client.post(app.at('/logout/all/'), { bearer: gone.access })).status).toBe(401);
    expect((await gone.client.get(app.at('/sessions/'), { bearer: gone.access })).status).toBe(401);
    expectError(await app.refresh(gone.client, gone.refresh), 401, 'session_expired');
    expectError(await live.client.delete(app.at(`/sessions/${gone.sessionId}/`), { bearer: live.access }), 404, 'session_not_found');
    // Invalidate-all touches only active sessions: the old revocation time stays.
    expect(await app.auth.invalidateAllForUser(app.users.alice.id)).toBe(1);
    expect((await app.store.findSession(gone.sessionId))?.expiredAt).toEqual(revokedAt);
  });

  kit.test('logout/unauthenticated', 'logout and logout/all without a token are 401', async () => {
    const app = await kit.start();
    for (const path of ['/logout/', '/logout/all/']) {
      const result = await app.client().post(app.at(path));
      expect(result.status, result.text).toBe(401);
      expect(result.errorCode).toMatch(/^[a-z_]+$/);
    }
  });

  kit.test('logout/all', "logout/all ends every session of the caller and no one else's", async () => {
    const app = await kit.start();
    const phone = await app.login('alice');
    const laptop = await app.login('alice');
    const bob = await app.login('bob');
    expectEmptyOk(await phone.client.post(app.at('/logout/all/'), { bearer: phone.access }));
    await expectDead(app, phone);
    await expectDead(app, laptop);
    await expectAlive(bob);
    expect((await app.refresh(bob.client, bob.refresh)).status).toBe(200);
  });

  kit.test('logout/others', 'logout/others ends every other session of the caller, keeps the current one and its refresh', async () => {
    const app = await kit.start();
    const phone = await app.login('alice');
    const laptop = await app.login('alice');
    const tablet = await app.login('alice');
    const bob = await app.login('bob');
    const ended: unknown[] = [];
    app.auth.on('revoke', (event) => {
      ended.push(event);
    });
    expectEmptyOk(await laptop.client.post(app.at('/logout/others/'), { bearer: laptop.access }));
    await expectDead(app, phone);
    await expectDead(app, tablet);
    await expectAlive(laptop);
    await expectAlive(bob);
    expect((await app.refresh(laptop.client, laptop.refresh)).status).toBe(200);
    expect((await app.refresh(bob.client, bob.refresh)).status).toBe(200);
    await expect.poll(() => ended).toContainEqual({ userId: app.users.alice.id, sessionId: null, count: 2, reason: 'logout_others' });
    // Alone now: nothing else to end, still a 200, and the caller stays signed in.
    expectEmptyOk(await laptop.client.post(app.at('/logout/others/'), { bearer: laptop.access }));
    await expectAlive(laptop);
  });

  kit.test('logout/others-unauthenticated', 'logout/others needs a live access token, and a revoked one ends nothing', async () => {
    const app = await kit.start();
    const phone = await app.login('alice');
    const laptop = await app.login('alice');
    const anonymous = await app.client().post(app.at('/logout/others/'));
    expect(anonymous.status, anonymous.text).toBe(401);
    expect(anonymous.errorCode).toMatch(/^[a-z_]+$/);
    expectEmptyOk(await phone.client.post(app.at('/logout/'), { bearer: phone.access }));
    expect((await phone.client.post(app.at('/logout/others/'), { bearer: phone.access })).status).toBe(401);
    await expectAlive(laptop);
  });

  kit.test('logout/others-keeps-cookie', "in cookie mode logout/others leaves the caller's refresh cookie alone", async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const one = await app.login('alice');
    const two = await app.login('alice');
    const result = await two.client.post(app.at('/logout/others/'), { bearer: two.access });
    expectEmptyOk(result);
    expect(result.headers.getSetCookie()).toEqual([]);
    expect((await app.refresh(two.client)).status).toBe(200);
    expect((await app.refresh(one.client)).status).toBe(401);
  });

  for (const transport of ['cookie', 'both'] as const) {
    kit.test(`logout/clears-cookie-${transport}`, `in ${transport} mode both logouts clear the refresh cookie`, async () => {
      const app = await kit.start({ refreshTokenTransport: transport });
      const one = await app.login('alice');
      const two = await app.login('alice');
      const single = await one.client.post(app.at('/logout/'), { bearer: one.access });
      expectEmptyOk(single);
      expectCookieCleared(single, 'refresh_token', app.at('/refresh/'));
      const all = await two.client.post(app.at('/logout/all/'), { bearer: two.access });
      expectEmptyOk(all);
      expectCookieCleared(all, 'refresh_token', app.at('/refresh/'));
      expect(two.client.jar.get('refresh_token')).toBeUndefined();
    });
  }

  kit.test('logout/invalidate-all', 'the server-side invalidate-all ends every session of one user', async () => {
    const app = await kit.start();
    const phone = await app.login('alice');
    const laptop = await app.login('alice');
    const bob = await app.login('bob');
    expect(await app.auth.invalidateAllForUser(app.users.alice.id)).toBe(2);
    await expectDead(app, phone);
    await expectDead(app, laptop);
    await expectAlive(bob);
    expect(await app.auth.invalidateAllForUser(app.users.alice.id)).toBe(0);
  });

  kit.test('logout/rows-stay-until-purged', 'revoked rows stay until purged; purge deletes them and keeps active ones', async () => {
    const app = await kit.start();
    const gone = await app.login('alice');
    const live = await app.login('alice');
    expectEmptyOk(await gone.client.post(app.at('/logout/'), { bearer: gone.access }));
    const revoked = await app.store.findSession(gone.sessionId);
    expect(revoked?.expiredAt).toBeInstanceOf(Date);
    expectError(await gone.client.get('/me', { bearer: gone.access }), 401, ['session_expired', 'session_not_found']);

    app.clock.advance(1);
    expect(await app.auth.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await app.store.findSession(gone.sessionId)).toBeNull();
    expect(await app.store.findSession(live.sessionId)).not.toBeNull();
    expectError(await gone.client.get('/me', { bearer: gone.access }), 401, 'session_not_found');
    expectError(await live.client.delete(app.at(`/sessions/${gone.sessionId}/`), { bearer: live.access }), 404, 'session_not_found');
    await expectAlive(live);
  });
}
