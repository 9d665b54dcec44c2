import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import type { Logger } from '../src/log/logger.js';
import { createPasswordAuthenticator } from '../src/password/password-authenticator.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import { sessauthRequest, USERS, type TestUser } from './helpers/sessauth-harness.js';

interface LogLine {
  readonly level: string;
  readonly event: string;
  readonly fields: Record<string, unknown>;
}

function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: string) =>
    (event: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, event, fields: fields ?? {} });
    };
  return { lines, warn: at('warn'), error: at('error'), info: at('info'), debug: at('debug') };
}

const users = {
  findById: async (id: string) => USERS.find((u) => u.id === id) ?? null,
  idOf: (user: TestUser) => user.id,
  securityStamp: (user: TestUser) => `stamp-${user.id}`,
  findByUsername: async (username: string) => {
    const user = USERS.find((u) => u.username === username);
    return user ? { user, passwordHash: `plain:${user.password}` } : null;
  },
};
const hasher = { hash: async (p: string) => `plain:${p}`, verify: async (h: string, p: string) => h === `plain:${p}` };

async function engine(options: Record<string, string | boolean> = {}) {
  const logger = recordingLogger();
  const auth = await createSessauth<TestUser>({
    options: {
      secretKey: 'a-test-secret-that-is-long-enough-for-hs256!',
      issuer: 'https://issuer.test',
      audience: 'sessauth-test',
      loginThrottleRate: '2/min',
      ...options,
    },
    store: new MemorySessionStore(),
    users,
    authenticator: createPasswordAuthenticator({ users, hasher }),
    geolocation: null,
    logger,
  });
  return { auth, logger };
}

const PEER = '198.51.100.23';

describe('operator log lines', () => {
  it('logs a throttle refusal once per bucket and window as rate_limited with the bucket kind, without address or name', async () => {
    const { auth, logger } = await engine();
    const login = () =>
      auth.handle(
        sessauthRequest({
          method: 'POST',
          path: '/auth/login/',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'alice', password: 'wrong-password' }),
          peerAddress: PEER,
        }),
      );
    for (let i = 0; i < 2; i++) expect((await login())?.status).toBe(401);
    expect(logger.lines.filter((line) => line.event === 'rate_limited')).toEqual([]);
    for (let i = 0; i < 3; i++) expect((await login())?.status).toBe(429);
    const refusals = logger.lines.filter((line) => line.event === 'rate_limited');
    expect(refusals.map((line) => line.level)).toEqual(['warn', 'debug', 'debug']);
    expect(refusals[0]!.fields).toMatchObject({ scope: 'login', limit: 2, window_sec: 60 });
    expect(refusals[0]!.fields.retry_after_sec).toBeGreaterThan(0);
    const text = JSON.stringify(logger.lines);
    expect(text).not.toContain(PEER);
    expect(text).not.toContain('alice');
  });
});
