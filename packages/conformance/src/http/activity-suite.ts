import type { PublicActivityEntry, PublicSession } from '@sessauth/core';
import { expect } from 'vitest';
import { expectError, expectNoStore } from './expectations.js';
import type { SuiteKit } from './suite-kit.js';

const ACTIVITY = { sessionActivity: true };
const SEED_ROW_KEYS = ['browser', 'created_at', 'expires_at', 'id', 'ip_address', 'is_current', 'last_activity_at', 'location', 'name', 'user_agent'];
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';

/** The activity history (JWT_SESSION_ACTIVITY): `GET {prefix}/sessions/{id}/activity/` and the list's last client. */
export function activitySuite(kit: SuiteKit): void {
  kit.test(
    'activity/own-session',
    "the caller's own session answers 200 with its entries oldest first; the list gains last_ip_address and last_browser",
    async () => {
      const app = await kit.start(ACTIVITY);
      const alice = await app.login('alice', { headers: { 'user-agent': CHROME } });
      const refreshed = await app.refresh(alice.client, alice.refresh);
      expect(refreshed.status, refreshed.text).toBe(200);
      const renamed = await alice.client.send('PATCH', app.at(`/sessions/${alice.sessionId}/`), { json: { name: 'Laptop' }, bearer: alice.access });
      expect(renamed.status, renamed.text).toBe(200);
      const other = await app.login('alice', { headers: { 'user-agent': FIREFOX } });

      // Read from the other device: any of the caller's own sessions, not only the current one.
      const result = await other.client.get(app.at(`/sessions/${alice.sessionId}/activity/`), { bearer: other.access });
      expect(result.status, result.text).toBe(200);
      expectNoStore(result, 'GET activity');
      const entries = result.body as PublicActivityEntry[];
      expect(entries.map((entry) => entry.kind)).toEqual(['created', 'refreshed', 'renamed']);
      expect(entries[0]).toMatchObject({ browser: 'Chrome on Windows', detail: null });
      expect(entries[2]).toMatchObject({ detail: 'Laptop' });
      const times = entries.map((entry) => Date.parse(entry.at));
      expect([...times].sort((a, b) => a - b)).toEqual(times);

      const list = (await other.client.get(app.at('/sessions/'), { bearer: other.access })).body as PublicSession[];
      const row = list.find((one) => one.id === alice.sessionId);
      expect(row).toMatchObject({ browser: 'Chrome on Windows', last_browser: 'Chrome on Windows' });
      expect(row).toHaveProperty('last_ip_address');
    },
    { needs: 'activity' },
  );

  kit.test(
    'activity/not-found',
    "401 without a token; another user's, a revoked, an unknown and a malformed id: the same 404 as DELETE",
    async () => {
      const app = await kit.start(ACTIVITY);
      const alice = await app.login('alice');
      const gone = await app.login('alice');
      const bob = await app.login('bob');
      expect((await gone.client.post(app.at('/logout/'), { bearer: gone.access })).status).toBe(200);
      expectError(await app.client().get(app.at(`/sessions/${alice.sessionId}/activity/`)), 401, ['invalid_token', 'not_authenticated']);
      const answers: string[] = [];
      for (const id of [bob.sessionId, gone.sessionId, 'no-such-session-id', 'x'.repeat(300), '%F0%9F%98%80']) {
        const result = await alice.client.get(app.at(`/sessions/${id}/activity/`), { bearer: alice.access });
        expectError(result, 404, 'session_not_found');
        answers.push(result.text);
      }
      expect(new Set(answers).size, answers.join('\n')).toBe(1);
    },
    { needs: 'activity' },
  );

  kit.test('activity/off', 'off by default: the route is absent (404 not_found) and the list rows are the seed rows', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    expectError(await alice.client.get(app.at(`/sessions/${alice.sessionId}/activity/`), { bearer: alice.access }), 404, 'not_found');
    const list = (await alice.client.get(app.at('/sessions/'), { bearer: alice.access })).body as PublicSession[];
    expect(list.map((row) => Object.keys(row).sort())).toEqual([SEED_ROW_KEYS]);
  });

  kit.test(
    'activity/new-device-signal',
    'with JWT_RISK_SIGNALS a login from a second browser carries a new_device entry',
    async () => {
      const app = await kit.start({ ...ACTIVITY, riskSignals: true });
      const first = await app.login('alice', { headers: { 'user-agent': CHROME } });
      const second = await app.login('alice', { headers: { 'user-agent': FIREFOX } });
      const read = async (sessionId: string) =>
        ((await second.client.get(app.at(`/sessions/${sessionId}/activity/`), { bearer: second.access })).body as PublicActivityEntry[]).map(
          (entry) => [entry.kind, entry.detail],
        );
      expect(await read(first.sessionId)).toEqual([['created', null]]);
      expect(await read(second.sessionId)).toEqual([
        ['created', null],
        ['risk_signal', 'new_device'],
      ]);
    },
    { needs: 'activity' },
  );

  kit.test(
    'activity/cap-revoked',
    'a session revoked by the login cap (JWT_MAX_ACTIVE_SESSIONS) gets a revoked entry naming the cap; the survivors none',
    async () => {
      const app = await kit.start({ ...ACTIVITY, maxActiveSessions: 2 });
      const first = await app.login('alice');
      const second = await app.login('alice');
      const bob = await app.login('bob');
      const third = await app.login('alice');
      expect((await first.client.get('/me', { bearer: first.access })).status).toBe(401);
      // The route answers only active sessions: the store holds the ended one's history (auth.listActivity reads it the same way).
      const userId = app.users.alice.id;
      const ids = [first.sessionId, second.sessionId, third.sessionId];
      const histories = await app.store.listActivity!({ userId, sessionIds: ids, now: app.clock.now() });
      const kinds = (id: string) => (histories.get(id) ?? []).map((entry) => [entry.kind, entry.detail]);
      expect(kinds(first.sessionId)).toEqual([
        ['created', null],
        ['revoked', 'max_active_sessions'],
      ]);
      expect(kinds(second.sessionId)).toEqual([['created', null]]);
      expect(kinds(third.sessionId)).toEqual([['created', null]]);
      const bobs = await app.store.listActivity!({ userId: app.users.bob.id, sessionIds: [bob.sessionId], now: app.clock.now() });
      expect((bobs.get(bob.sessionId) ?? []).map((entry) => entry.kind)).toEqual(['created']);
    },
    { needs: 'activity' },
  );
}
