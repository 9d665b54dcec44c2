import type { PublicSession, RevokeEvent } from '@sessauth/core';
import { expect } from 'vitest';
import type { TestApp } from './conformance-app.js';
import { expectError } from './expectations.js';
import { field } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

/** The guard's activity touch is sent without waiting: poll the store until it landed (10 s at most). */
async function touched(app: TestApp, sessionId: string, after: Date): Promise<void> {
  let last = 0;
  for (let waited = 0; waited < 10_000; waited += 20) {
    last = (await app.store.findSession(sessionId))?.lastActivityAt.getTime() ?? 0;
    if (last > after.getTime()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(last, 'the touch of last_activity_at never landed').toBeGreaterThan(after.getTime());
}

/** JWT_SESSION_IDLE_SECONDS: the guard, the refresh and the list agree on an idle session. */
export function idleSuite(kit: SuiteKit): void {
  kit.test(
    'idle/guard-refresh-list',
    'a session idle for the timeout is over for the guard, the list and the refresh, which revokes it',
    async () => {
      const app = await kit.start({ sessionIdleSeconds: 600, activityUpdateIntervalSeconds: 60, accessTokenExpireSeconds: 3600 });
      const revokes: RevokeEvent[] = [];
      app.auth.on('revoke', (event) => void revokes.push(event));
      const used = await app.login('alice');
      const idle = await app.login('alice');
      const loggedInAt = app.clock.now();

      app.clock.advance(300);
      expect((await used.client.get('/me', { bearer: used.access })).status).toBe(200);
      await touched(app, used.sessionId, loggedInAt);
      // 601 s after the logins: `idle` had no activity for longer than 600 s, `used` 301 s ago.
      app.clock.advance(301);

      expectError(await idle.client.get('/me', { bearer: idle.access }), 401, 'session_expired');
      const list = await used.client.get(app.at('/sessions/'), { bearer: used.access });
      expect(list.status, list.text).toBe(200);
      expect((list.body as PublicSession[]).map((session) => session.id)).toEqual([used.sessionId]);
      // The guard only treats it as over; the refresh revokes it in the store's swap.
      expect((await app.store.findSession(idle.sessionId))?.expiredAt).toBeNull();

      expectError(await app.refresh(idle.client, idle.refresh), 401, 'session_expired');
      expect((await app.store.findSession(idle.sessionId))?.expiredAt).toBeInstanceOf(Date);
      for (let waited = 0; revokes.length === 0 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(revokes).toEqual([{ userId: app.users.alice.id, sessionId: idle.sessionId, count: 1, reason: 'idle' }]);

      const fresh = await app.refresh(used.client, used.refresh);
      expect(fresh.status, fresh.text).toBe(200);
    },
  );

  kit.test('idle/refresh-is-activity', 'each refresh is activity: a session refreshed within the timeout lives on', async () => {
    const app = await kit.start({ sessionIdleSeconds: 600 });
    const alice = await app.login('alice');
    app.clock.advance(400);
    const first = await app.refresh(alice.client, alice.refresh);
    expect(first.status, first.text).toBe(200);
    const next = field(first.body, 'refresh_token');
    app.clock.advance(400);
    const second = await app.refresh(alice.client, typeof next === 'string' ? next : undefined);
    expect(second.status, second.text).toBe(200);
    app.clock.advance(600);
    const access = field(second.body, 'access_token');
    expectError(await alice.client.get('/me', { bearer: String(access) }), 401, ['session_expired', 'expired_token']);
    const third = field(second.body, 'refresh_token');
    expectError(await app.refresh(alice.client, typeof third === 'string' ? third : undefined), 401, 'session_expired');
  });

  kit.test('idle/off-by-default', 'without JWT_SESSION_IDLE_SECONDS a session unused for days still refreshes', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    app.clock.advance(10 * 86_400);
    const result = await app.refresh(alice.client, alice.refresh);
    expect(result.status, result.text).toBe(200);
  });
}
