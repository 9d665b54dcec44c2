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
      // No raw username by default (a password typed into the username box would arrive verbatim).
      expect(seen[2]).toMatchObject({ name: 'login_failed', event: { code: 'invalid_credentials', username: null, usernameLength: 5 } });

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

/** Registered by `eventsSuite`: the events that arrive when the store is slow, and what they carry. */
export function eventsDeliverySuite(kit: SuiteKit): void {
  kit.test('events/handlers-independent', 'a handler that never settles does not hold the handlers after it', async () => {
    const app = await kit.start();
    const calls: string[] = [];
    app.auth.on('login', () => new Promise<void>(() => {}));
    app.auth.on('login', () => void calls.push('second'));
    await app.login('alice');
    for (let waited = 0; calls.length === 0 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual(['second']);
  });

  kit.test(
    'events/slow-store',
    "reuse_detected and login arrive when the store is slow late in the request: their reads are not the finished request's",
    async () => {
      const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      let slow = false;
      // Each read after the response waits 1 s; the rotation itself takes most of a 1.5 s budget (the
      // margin left is the real store's own time, on a loaded machine too).
      const app = await kit.start(
        { storeBudgetMs: 1500 },
        {
          wrapStore: (store) =>
            new Proxy(store, {
              get(target, key, receiver) {
                const value = Reflect.get(target, key, receiver);
                if (typeof value !== 'function') return value;
                return async (...args: unknown[]) => {
                  if (slow && (key === 'rotateRefresh' || key === 'findSession' || key === 'listActiveSessions'))
                    await delay(key === 'rotateRefresh' ? 700 : 1000);
                  return value.apply(target, args);
                };
              },
            }),
        },
      );
      const seen = record(app);
      const alice = await app.login('alice');
      await settle(seen, 1);
      expect((await app.refresh(alice.client, alice.refresh)).status).toBe(200);
      await settle(seen, 2);
      slow = true;
      expectError(await app.refresh(alice.client, alice.refresh), 401, 'token_reuse_detected');
      await settle(seen, 4);
      expect(
        seen.some((entry) => entry.name === 'reuse_detected'),
        app.logger.lines.join('\n'),
      ).toBe(true);
      expect(app.logger.lines.some((line) => line.includes('event_failed'))).toBe(false);
    },
    { timeoutMs: 20_000 },
  );

  kit.test(
    'events/payload-privacy',
    'reuse_detected names the replaying client; login_failed carries a keyed hash and a length, the raw username only when the host opts in',
    async () => {
      const app = await kit.start({ trustedProxyCidrs: ['127.0.0.1/32'] });
      const seen = record(app);
      const alice = await app.login('alice', { headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect((await app.refresh(alice.client, alice.refresh)).status).toBe(200);
      const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
      const thief = app.client();
      for (const ip of ['198.51.100.7', '203.0.113.9']) app.secrets.add(ip);
      const replay = await thief.post(app.at('/refresh/'), {
        json: { refresh_token: alice.refresh },
        headers: { 'x-forwarded-for': '203.0.113.9', 'user-agent': firefox },
        csrf: false,
      });
      expectError(replay, 401, 'token_reuse_detected');
      for (let waited = 0; !seen.some((e) => e.name === 'reuse_detected') && waited < 10_000; waited += 20)
        await new Promise((r) => setTimeout(r, 20));
      expect(seen.find((entry) => entry.name === 'reuse_detected')?.event).toMatchObject({
        ipAddress: '198.51.100.7',
        replayedBy: { ipAddress: '203.0.113.9', browser: 'Firefox on Linux', userAgent: firefox },
      });

      const typed = 'correct horse battery staple';
      expectError(await app.client().post(app.at('/login/'), { json: { username: typed, password: 'x' } }), 401, 'invalid_credentials');
      expectError(
        await app.client().post(app.at('/login/'), { json: { username: ` ${typed.toUpperCase()}`, password: 'y' } }),
        401,
        'invalid_credentials',
      );
      for (let waited = 0; seen.filter((e) => e.name === 'login_failed').length < 2 && waited < 10_000; waited += 20)
        await new Promise((r) => setTimeout(r, 20));
      const failed = seen.filter((entry) => entry.name === 'login_failed').map((entry) => entry.event as SessauthEventMap['login_failed']);
      expect(failed).toHaveLength(2);
      // Each event is delivered after its own answer, from its own reads: their order is not the requests'.
      const [plain, spaced] = [...failed].sort((a, b) => (a.usernameLength ?? 0) - (b.usernameLength ?? 0));
      expect(plain).toMatchObject({ username: null, usernameLength: typed.length });
      expect(spaced).toMatchObject({ username: null, usernameLength: typed.length + 1 });
      expect(plain!.usernameHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // One account, two spellings: the same hash.
      expect(spaced!.usernameHash).toBe(plain!.usernameHash);
      expect(JSON.stringify(seen)).not.toContain(typed);

      const optedIn = await kit.start({ eventRawUsernames: true });
      const raw = record(optedIn);
      expectError(await optedIn.client().post(optedIn.at('/login/'), { json: { username: 'mallory', password: 'x' } }), 401, 'invalid_credentials');
      await settle(raw, 1);
      expect(raw[0]).toMatchObject({ name: 'login_failed', event: { username: 'mallory', usernameLength: 7 } });
    },
  );
}
