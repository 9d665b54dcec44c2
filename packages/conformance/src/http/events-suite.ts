import { expect } from 'vitest';
import type { SessauthEventMap, SessauthEventName } from '@sessauth/core';
import type { TestApp } from './conformance-app.js';
import { expectError } from './expectations.js';
import type { SuiteKit } from './suite-kit.js';

type Seen = Array<{ [E in SessauthEventName]: { name: E; event: SessauthEventMap[E] } }[SessauthEventName]>;

function record(app: TestApp): Seen {
  const seen: Seen = [];
  for (const name of ['login', 'refresh', 'revoke', 'reuse_detected', 'login_failed'] as const) {
    app.auth.on(name, (event) => void seen.push({ name, event } as Seen[number]));
  }
  return seen;
}

/** Events run after the response: wait until `count` arrived (or fail after 10 s on a busy machine). */
async function settle(seen: Seen, count: number): Promise<void> {
  for (let waited = 0; seen.length < count && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(seen.length, JSON.stringify(seen)).toBeGreaterThanOrEqual(count);
}

/** The session lifecycle events of `createSessauth({ events })` / `auth.on`. */
export function eventsSuite(kit: SuiteKit): void {
  kit.test(
    'events/lifecycle',
    'login (new device), refresh, reuse, revoke and a failed login are reported after the fact, without secrets',
    async () => {
      const app = await kit.start();
      const seen = record(app);
      const chrome = {
        'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      };
      const first = await app.login('alice', { headers: chrome });
      await settle(seen, 1);
      const second = await app.login('alice', { headers: chrome });
      await settle(seen, 2);
      expect(seen.slice(0, 2).map((entry) => entry.name)).toEqual(['login', 'login']);
      expect(seen[0]!.event).toMatchObject({
        userId: app.users.alice.id,
        sessionId: first.sessionId,
        browser: 'Chrome on Windows',
        isNewDevice: true,
      });
      expect(seen[1]!.event).toMatchObject({ sessionId: second.sessionId, isNewDevice: false });

      const wrong = await app.client().post(app.at('/login/'), { json: { username: 'alice', password: 'not-hers' } });
      expectError(wrong, 401, 'invalid_credentials');
      await settle(seen, 3);
      expect(seen[2]).toMatchObject({ name: 'login_failed', event: { code: 'invalid_credentials', username: 'alice' } });

      expect((await app.refresh(first.client, first.refresh)).status).toBe(200);
      await settle(seen, 4);
      expect(seen[3]).toMatchObject({ name: 'refresh', event: { userId: app.users.alice.id, sessionId: first.sessionId } });

      expectError(await app.refresh(first.client, first.refresh), 401, 'token_reuse_detected');
      await settle(seen, 6);
      const names = seen
        .slice(4, 6)
        .map((entry) => entry.name)
        .sort();
      expect(names).toEqual(['reuse_detected', 'revoke']);
      expect(seen.find((entry) => entry.name === 'reuse_detected')?.event).toMatchObject({
        sessionId: first.sessionId,
        browser: 'Chrome on Windows',
      });
      expect(seen.find((entry) => entry.name === 'revoke')?.event).toMatchObject({ sessionId: first.sessionId, reason: 'reuse', count: 1 });

      await second.client.post(app.at('/logout/all/'), { bearer: second.access });
      await settle(seen, 7);
      expect(seen[6]).toMatchObject({ name: 'revoke', event: { sessionId: null, reason: 'logout_all', count: 1 } });

      const text = JSON.stringify(seen);
      for (const secret of app.secrets) expect(text.includes(secret), 'an event carried a token or password').toBe(false);
    },
  );

  kit.test('events/handler-failure', 'a throwing or slow handler neither fails nor delays the response, and is logged', async () => {
    const app = await kit.start();
    let calls = 0;
    app.auth.on('login', () => {
      calls++;
      throw new Error('the host handler broke');
    });
    app.auth.on('login', () => new Promise<void>((resolve) => setTimeout(resolve, 60_000)));
    const alice = await app.login('alice');
    expect(alice.result.status).toBe(200);
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(200);
    for (let waited = 0; calls === 0 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
    expect(
      app.logger.lines.some((line) => line.includes('event_handler_failed')),
      app.logger.lines.join('\n'),
    ).toBe(true);
  });
}
