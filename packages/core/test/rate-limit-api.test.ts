import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import { IntegrationError, SessauthError } from '../src/errors/sessauth-error.js';
import { accountRateKey, normaliseUsername } from '../src/rate-limit/account-rate-key.js';
import { MemoryRateLimitStore } from '../src/rate-limit/memory-rate-limit-store.js';
import type { SessauthOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { settingsFromEnv } from '../src/options/settings-from-env.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { RateLimitStore } from '../src/store/store-port.js';
import { sessauthRequest, silentLogger } from './helpers/sessauth-harness.js';

const base: SessauthOptions = { secretKey: 'an-hmac-secret-of-exactly-32-by!', issuer: 'https://issuer.test', audience: 'aud' };

function manualClock() {
  let ms = Date.UTC(2026, 0, 1);
  return { now: () => new Date(ms), advance: (seconds: number) => void (ms += seconds * 1000) };
}

const alice = { id: 'user-alice', username: 'alice' };

async function engine(options: Partial<SessauthOptions> = {}, rateLimitStore: RateLimitStore = new MemoryRateLimitStore()) {
  const clock = manualClock();
  const authenticatorCalls: string[] = [];
  const auth = await createSessauth({
    options: { ...base, loginThrottleRate: '0', refreshThrottleRate: '0', trustedProxyCidrs: ['127.0.0.1/32'], ...options },
    store: new MemorySessionStore(),
    users: { findById: async (id) => (id === alice.id ? alice : null), idOf: (user) => user.id, securityStamp: () => 'stamp' },
    authenticator: async (body) => {
      authenticatorCalls.push(String(body.username));
      if (body.username === 'alice' && body.password === 'right') return alice;
      throw new SessauthError('invalid_credentials');
    },
    clock,
    logger: silentLogger,
    rateLimitStore,
  });
  const login = async (username: unknown, password: string, ip: string) => {
    const response = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/login/',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ username, password }),
      }),
    );
    return { status: response!.status, body: JSON.parse(response!.body!) as Record<string, unknown>, headers: response!.headers };
  };
  return { auth, clock, login, authenticatorCalls };
}

const brokenStore: RateLimitStore = { hit: () => Promise.reject(new Error('connection refused')) };

describe('JWT_LOGIN_ACCOUNT_THROTTLE_RATE', () => {
  it('is off by default, read from the environment, and validated like the other rates', () => {
    expect(resolveOptions(base).loginAccountThrottle).toBeNull();
    expect(resolveOptions(base).loginAccountThrottleRate).toBe('0');
    const fromEnv = settingsFromEnv({ JWT_LOGIN_ACCOUNT_THROTTLE_RATE: '20/hour' }, { logger: { warn: () => {} } });
    expect(resolveOptions({ ...base, ...fromEnv }).loginAccountThrottle).toEqual({ limit: 20, windowSec: 3600 });
    expect(() => resolveOptions({ ...base, loginAccountThrottleRate: '20 per hour' })).toThrow(/JWT_LOGIN_ACCOUNT_THROTTLE_RATE/);
  });

  it('limits one username across addresses with the same 429 as the address limit; other usernames keep their budget', async () => {
    const { login, authenticatorCalls } = await engine({ loginAccountThrottleRate: '2/min' });
    expect((await login('alice', 'wrong', '198.18.0.1')).status).toBe(401);
    expect((await login('alice', 'wrong', '198.18.0.2')).status).toBe(401);
    const limited = await login('alice', 'right', '198.18.0.3');
    expect(limited).toMatchObject({ status: 429, body: { error_code: 'rate_limited' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The password was never checked for the limited attempt.
    expect(authenticatorCalls).toEqual(['alice', 'alice']);
    expect((await login('bob', 'wrong', '198.18.0.3')).status).toBe(401);
  });

  it('counts the normalised username: case, spaces and Unicode compatibility forms are one account', async () => {
    const { login } = await engine({ loginAccountThrottleRate: '2/min' });
    await login(' Alice ', 'wrong', '198.18.0.1');
    await login('ＡＬＩＣＥ', 'wrong', '198.18.0.2');
    expect((await login('alice', 'right', '198.18.0.3')).status).toBe(429);
    expect(normaliseUsername('  ＡｌＩｃｅ ')).toBe('alice');
  });

  it('answers an unknown username exactly as an existing one, under and over the limit', async () => {
    const { login } = await engine({ loginAccountThrottleRate: '1/min' });
    const known = [await login('alice', 'wrong', '198.18.1.1'), await login('alice', 'wrong', '198.18.1.2')];
    const unknown = [await login('mallory', 'wrong', '198.18.1.3'), await login('mallory', 'wrong', '198.18.1.4')];
    expect(unknown.map((r) => [r.status, r.body, r.headers])).toEqual(known.map((r) => [r.status, r.body, r.headers]));
    expect(known.map((r) => r.status)).toEqual([401, 429]);
  });

  it('lets the account in again after the window', async () => {
    const { login, clock } = await engine({ loginAccountThrottleRate: '1/min' });
    await login('alice', 'wrong', '198.18.2.1');
    expect((await login('alice', 'right', '198.18.2.2')).status).toBe(429);
    clock.advance(60);
    expect((await login('alice', 'right', '198.18.2.3')).status).toBe(200);
  });

  it('fails closed (503) when the counter store fails, and never checks the password', async () => {
    const { login, authenticatorCalls } = await engine({ loginAccountThrottleRate: '5/min' }, brokenStore);
    expect(await login('alice', 'right', '198.18.3.1')).toMatchObject({ status: 503, body: { error_code: 'service_unavailable' } });
    expect(authenticatorCalls).toEqual([]);
  });

  it('keys the counter with a keyed hash: no username in the key, another secret gives another key', async () => {
    const owner = {};
    const key = await accountRateKey(owner, 'secret-one-secret-one-secret-one!', 'Alice');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key).not.toContain('alice');
    expect(await accountRateKey(owner, 'secret-one-secret-one-secret-one!', ' ALICE')).toBe(key);
    expect(await accountRateKey({}, 'secret-two-secret-two-secret-two!', 'alice')).not.toBe(key);
  });
});

describe('auth.rateLimit', () => {
  it('counts hits of a key in a fixed window: allowed, remaining, resetAt, retryAfter', async () => {
    const { auth, clock } = await engine();
    const start = clock.now().getTime();
    expect(await auth.rateLimit('otp:user-1', '2/min')).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      resetAt: new Date(start + 60_000),
      retryAfter: 0,
    });
    expect(await auth.rateLimit('otp:user-1', '2/min')).toMatchObject({ allowed: true, remaining: 0 });
    clock.advance(20);
    expect(await auth.rateLimit('otp:user-1', '2/min')).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      resetAt: new Date(start + 60_000),
      retryAfter: 40,
    });
    // Another key has its own budget; the window's end gives a fresh one.
    expect((await auth.rateLimit('otp:user-2', '2/min')).allowed).toBe(true);
    clock.advance(40);
    expect(await auth.rateLimit('otp:user-1', '2/min')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it("shares the engine's rate-limit store, in its own namespace (a host key cannot spend a login budget)", async () => {
    const store = new MemoryRateLimitStore();
    const { auth, login } = await engine({ loginThrottleRate: '1/min' }, store);
    await auth.rateLimit('198.18.4.1', '1/min');
    await auth.rateLimit('throttle:login:198.18.4.1', '1/min');
    expect(store.size).toBe(2);
    expect((await login('alice', 'right', '198.18.4.1')).status).toBe(200);
    expect((await login('alice', 'right', '198.18.4.1')).status).toBe(429);
  });

  it('rate "0" never limits and touches no store', async () => {
    const { auth } = await engine({}, brokenStore);
    expect(await auth.rateLimit('k', '0')).toMatchObject({ allowed: true, limit: Infinity, remaining: Infinity, retryAfter: 0 });
  });

  it('refuses a malformed rate or key as a programmer error (the login rate parser)', async () => {
    const { auth } = await engine();
    for (const rate of ['5 per minute', '0/min', '', '5/fortnight']) {
      await expect(auth.rateLimit('k', rate)).rejects.toBeInstanceOf(IntegrationError);
    }
    await expect(auth.rateLimit('', '5/min')).rejects.toBeInstanceOf(IntegrationError);
    await expect(auth.rateLimit('k'.repeat(1025), '5/min')).rejects.toBeInstanceOf(IntegrationError);
  });

  it('fails closed like the login limiter: a store fault rejects with 503 service_unavailable', async () => {
    const { auth } = await engine({}, brokenStore);
    await expect(auth.rateLimit('otp:user-1', '5/min')).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });
  });
});
