import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import type { Logger } from '../src/log/logger.js';
import { createPasswordAuthenticator } from '../src/password/password-authenticator.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import { cookiesSet, sessauthRequest, plainHasher, testUsers, type TestUser } from './helpers/sessauth-harness.js';

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

async function engine(options: Record<string, string | boolean | string[]> = {}) {
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
    users: testUsers,
    authenticator: createPasswordAuthenticator({ users: testUsers, hasher: plainHasher }),
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

  it('a body refresh_token sent to a cookie-transport server is 401 with a hint in the log, the token never logged', async () => {
    const { auth, logger } = await engine({ refreshTokenTransport: 'cookie', loginThrottleRate: '0' });
    const csrf = await auth.handle(sessauthRequest({ path: '/auth/csrf/' }));
    const csrfCookie = cookiesSet(csrf!).get(auth.options.csrfCookieName)!;
    const { csrf_token } = JSON.parse(csrf!.body!) as { csrf_token: string };
    const bodyToken = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLW9mLWEtYm9keS10b2tlbg';
    const response = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/refresh/',
        headers: { 'content-type': 'application/json', cookie: `${auth.options.csrfCookieName}=${csrfCookie}`, 'x-csrftoken': csrf_token },
        body: JSON.stringify({ refresh_token: bodyToken }),
      }),
    );
    expect(response?.status).toBe(401);
    expect(JSON.parse(response!.body!)).toMatchObject({ error_code: 'invalid_token' });
    const hints = logger.lines.filter((line) => line.event === 'refresh_token_in_body_ignored');
    expect(hints).toHaveLength(1);
    expect(String(hints[0]!.fields.hint)).toContain('refresh_token in the body is ignored in cookie transport');
    expect(JSON.stringify(logger.lines)).not.toContain(bodyToken);
  });

  it('the same request in both transports is not hinted (the body token is read there)', async () => {
    const { auth, logger } = await engine({ refreshTokenTransport: 'both', loginThrottleRate: '0' });
    const csrf = await auth.handle(sessauthRequest({ path: '/auth/csrf/' }));
    const csrfCookie = cookiesSet(csrf!).get(auth.options.csrfCookieName)!;
    const { csrf_token } = JSON.parse(csrf!.body!) as { csrf_token: string };
    await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/refresh/',
        headers: { 'content-type': 'application/json', cookie: `${auth.options.csrfCookieName}=${csrfCookie}`, 'x-csrftoken': csrf_token },
        body: JSON.stringify({ refresh_token: 'not.a.token' }),
      }),
    );
    expect(logger.lines.map((line) => line.event)).not.toContain('refresh_token_in_body_ignored');
  });

  it('a cross-site login without the CSRF cookie is 403 csrf_failed, logged with no_cookie and SameSite named as the likely cause', async () => {
    const { auth, logger } = await engine({
      refreshTokenTransport: 'cookie',
      loginThrottleRate: '0',
      csrfTrustedOrigins: ['http://127.0.0.1:5173'],
    });
    // What a browser sends from a page on 127.0.0.1 to an API on localhost: the Lax cookie stays behind.
    const response = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/login/',
        headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:5173', host: 'localhost:3000', 'x-csrftoken': 'x'.repeat(64) },
        body: JSON.stringify({ username: 'alice', password: 'alice-password' }),
      }),
    );
    expect(response?.status).toBe(403);
    expect(JSON.parse(response!.body!)).toMatchObject({ error_code: 'csrf_failed' });
    const failures = logger.lines.filter((line) => line.event === 'csrf_failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.fields).toMatchObject({ reason: 'no_cookie' });
    expect(String(failures[0]!.fields.likely_cause)).toContain('SameSite');
    expect(String(failures[0]!.fields.hint)).toContain('localhost and the loopback address in digits are two sites');
    expect(String(failures[0]!.fields.hint)).toContain('GET /auth/csrf/');
  });
});
