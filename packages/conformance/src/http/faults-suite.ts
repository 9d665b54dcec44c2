import { StoreUnavailableError, type RateLimitStore, type SessionStore } from '@sessauth/core';
import { expect } from 'vitest';
import { expectError, expectNoStore } from './expectations.js';
import type { HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

/** The cell's store, failing every call while `fault.on` (as a store that lost its server does). */
function switchableStore(inner: SessionStore, fault: { on: boolean }): SessionStore {
  return new Proxy(inner, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (fault.on) return Promise.reject(new StoreUnavailableError('conformance: the store is down'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** The cell's store, each call answered `delay.ms` late (a slow database), its work done meanwhile. */
function slowStore(inner: SessionStore, delay: { ms: number }): SessionStore {
  return new Proxy(inner, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const result: unknown = await (value as (...a: unknown[]) => unknown).apply(target, args);
        if (delay.ms > 0) await new Promise((resolve) => setTimeout(resolve, delay.ms));
        return result;
      };
    },
  });
}

const brokenLimiter: RateLimitStore = {
  hit: () => Promise.reject(new StoreUnavailableError('conformance: the limiter is down')),
};

/** The whole body of every 503: the code and its fixed text, never the store's own diagnostic. */
export const SERVICE_UNAVAILABLE_BODY = '{"error_code":"service_unavailable","message":"The service is temporarily unavailable."}';

/** Faults fail closed: a store that is down gives 503 and changes nothing; a broken limiter denies with 503. */
export function faultsSuite(kit: SuiteKit): void {
  kit.test('faults/store-down', 'a store that is down answers 503 service_unavailable everywhere, logged, and consumes nothing', async () => {
    const fault = { on: false };
    const app = await kit.start({}, { wrapStore: (store) => switchableStore(store, fault) });
    const alice = await app.login('alice');
    const other = await app.login('alice');
    fault.on = true;
    const auth = { bearer: alice.access };
    const answers: Array<[string, HttpResult]> = [
      ['login', await app.client().post(app.at('/login/'), { json: { username: 'alice', password: app.users.passwords.alice } })],
      ['refresh', await app.refresh(alice.client, alice.refresh)],
      ['sessions', await alice.client.get(app.at('/sessions/'), auth)],
      ['delete', await alice.client.delete(app.at(`/sessions/${other.sessionId}/`), auth)],
      ['logout', await alice.client.post(app.at('/logout/'), auth)],
      ['logout/all', await alice.client.post(app.at('/logout/all/'), auth)],
    ];
    for (const [what, result] of answers) {
      expectError(result, 503, 'service_unavailable');
      expect(result.text, `the 503 body of ${what}`).toBe(SERVICE_UNAVAILABLE_BODY);
      expectNoStore(result, what);
    }
    expectError(await alice.client.get('/me', auth), 503, 'service_unavailable');
    expect(app.logger.lines.length, 'a store fault is logged').toBeGreaterThan(0);

    fault.on = false;
    expect((await app.refresh(alice.client, alice.refresh)).status).toBe(200);
    expect((await other.client.get('/me', { bearer: other.access })).status).toBe(200);
  });

  kit.test('faults/store-budget', 'the store calls of one request share one budget: two slow calls in a row answer 503 at its end', async () => {
    const delay = { ms: 0 };
    // Each call is well inside the budget; two in a row (authenticate, then revoke) are not.
    const app = await kit.start({ storeBudgetMs: 400 }, { wrapStore: (store) => slowStore(store, delay) });
    const alice = await app.login('alice');
    const other = await app.login('alice');
    delay.ms = 300;
    const auth = { bearer: alice.access };
    const deleted = await alice.client.delete(app.at(`/sessions/${other.sessionId}/`), auth);
    expectError(deleted, 503, 'service_unavailable');
    expect(deleted.text).toBe(SERVICE_UNAVAILABLE_BODY);
    expect(app.logger.lines.some((line) => line.includes('store_unavailable'))).toBe(true);
    // The revocation went on after the answer, as one whose answer was lost on the way does.
    delay.ms = 0;
    await expect.poll(async () => (await other.client.get('/me', { bearer: other.access })).status, { timeout: 5000 }).toBe(401);

    // The same slow store inside a budget that fits both calls: served.
    const roomy = await kit.start({ storeBudgetMs: 5000 }, { wrapStore: (store) => slowStore(store, delay) });
    const bob = await roomy.login('alice');
    const bobOther = await roomy.login('alice');
    delay.ms = 300;
    const served = await bob.client.delete(roomy.at(`/sessions/${bobOther.sessionId}/`), { bearer: bob.access });
    expect(served.status).toBeLessThan(300);
    delay.ms = 0;
  });

  kit.test('faults/limiter-down', 'a rate limiter that fails denies login and refresh with 503, never 429 and never unthrottled', async () => {
    const app = await kit.start({ loginThrottleRate: '100/min', refreshThrottleRate: '100/min' }, { rateLimitStore: brokenLimiter });
    const client = app.client();
    const login = await client.post(app.at('/login/'), { json: { username: 'alice', password: app.users.passwords.alice } });
    expectError(login, 503, 'service_unavailable');
    expect(login.text).toBe(SERVICE_UNAVAILABLE_BODY);
    expect(login.headers.get('retry-after'), 'an outage is not a rate limit').toBeNull();
    const refresh = await client.post(app.at('/refresh/'), { json: { refresh_token: 'garbage' } });
    expectError(refresh, 503, 'service_unavailable');
    expect(app.logger.lines.some((line) => line.includes('rate_limiter_failed'))).toBe(true);
  });
}
