import { createArgon2PasswordHasher } from '@sessauth/core/argon2';
import { expect } from 'vitest';
import { expectError } from './expectations.js';
import type { SuiteKit } from './suite-kit.js';

/** The flood: wrong-password logins, each from an IPv6 /64 of its own behind the trusted loopback proxy. */
const FLOOD = 150;
/** Flood clients give up after this long, as a real attacker's or a real user's would. */
const CLIENT_PATIENCE_MS = 2_000;
/** How long the real user's login may take once the flood clients are gone (the bound). */
const REAL_LOGIN_BOUND_MS = 5_000;

const random = (below: number) => crypto.getRandomValues(new Uint32Array(1))[0]! % below;

/** A login flood never locks real users out: the hasher's line is bounded, refuses fast, and drops checks whose client left. */
export function loginFloodSuite(kit: SuiteKit): void {
  kit.test(
    'login/flood',
    'a flood of wrong-password logins from many networks is refused fast (429 login_busy, Retry-After), and a real login after it succeeds',
    async () => {
      // One check at a time with a short line: the flood fills it at once, as hundreds of clients do on a real server.
      const hasher = createArgon2PasswordHasher({ maxConcurrent: 1, maxQueued: 4, maxQueueWaitMs: 1000 });
      const app = await kit.start({ trustedProxyCidrs: ['127.0.0.1/32'], loginThrottleRate: '5/min' }, { hasher });
      const flood = Array.from({ length: FLOOD }, (_, index) => {
        const ip = `2001:db8:${random(0x10000).toString(16)}:${index.toString(16)}::1`;
        app.secrets.add(ip);
        return app
          .client()
          .post(app.at('/login/'), {
            json: { username: 'alice', password: `wrong-${index}` },
            headers: { 'x-forwarded-for': ip },
            signal: AbortSignal.timeout(CLIENT_PATIENCE_MS),
          })
          .catch(() => null);
      });
      const answers = (await Promise.all(flood)).filter((answer) => answer !== null);
      const busy = answers.filter((answer) => answer.status === 429);
      expect(busy.length, 'the line refused part of the flood').toBeGreaterThan(0);
      for (const answer of busy) {
        expectError(answer, 429, 'login_busy');
        expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      }
      expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);

      // Every flood client has gone: a real user from a fresh address logs in within the bound,
      // as a real client does: a 429 login_busy is retried after its Retry-After.
      const ip = '198.18.77.1';
      app.secrets.add(ip);
      const deadline = Date.now() + REAL_LOGIN_BOUND_MS;
      const signIn = () =>
        app.client().post(app.at('/login/'), {
          json: { username: 'alice', password: app.users.passwords.alice },
          headers: { 'x-forwarded-for': ip },
          signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
        });
      let real = await signIn();
      while (real.status === 429 && real.errorCode === 'login_busy') {
        const wait = Number(real.headers.get('retry-after')) * 1000;
        if (Date.now() + wait >= deadline) break;
        await new Promise((resolve) => setTimeout(resolve, wait));
        real = await signIn();
      }
      expect(real.status, real.text).toBe(200);
      // The operator reads why: the hasher is saturated, not the store down.
      const lines = app.logger.lines.join('\n');
      expect(lines).toContain('password_hasher_saturated');
      expect(lines).not.toContain('store_unavailable');
    },
    // The flood clients' patience plus the real user's bound, and room for a loaded machine.
    { timeoutMs: 30_000 },
  );
}
