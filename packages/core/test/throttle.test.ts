import { describe, expect, it } from 'vitest';
import { SessauthError } from '../src/errors/sessauth-error.js';
import type { Logger } from '../src/log/logger.js';
import { MemoryRateLimitStore } from '../src/rate-limit/memory-rate-limit-store.js';
import { throttle, throttleAll } from '../src/rate-limit/throttle.js';
import type { RateLimitStore } from '../src/store/store-port.js';

const at = (seconds: number): Date => new Date(Date.UTC(2025, 0, 1) + seconds * 1000);

function recordingLogger(): Logger & { lines: { event: string; fields: unknown }[] } {
  const lines: { event: string; fields: unknown }[] = [];
  return { lines, warn: (event, fields) => lines.push({ event, fields }), error: (event, fields) => lines.push({ event, fields }) };
}

async function rejection(promise: Promise<void>): Promise<SessauthError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SessauthError)) throw new Error(`expected a SessauthError, got ${String(error)}`);
  return error;
}

const FIVE_PER_MINUTE = { limit: 5, windowSec: 60 };

describe('throttle', () => {
  it('allows up to the limit, then answers 429 with Retry-After to the window end', async () => {
    const store = new MemoryRateLimitStore();
    const logger = recordingLogger();
    const hit = (seconds: number) => throttle(store, { scope: 'login', clientKey: '198.51.100.7', rate: FIVE_PER_MINUTE, now: at(seconds), logger });
    for (let i = 0; i < 5; i++) await expect(hit(i)).resolves.toBeUndefined();
    const error = await rejection(hit(10.5));
    expect(error.code).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(50); // ceil(60 - 10.5)
    expect((await rejection(hit(59.9))).retryAfter).toBe(1); // never 0
    // One warning for the bucket's first refusal in the window (the recorder has no debug), no address.
    expect(logger.lines).toEqual([{ event: 'rate_limited', fields: { scope: 'login', limit: 5, window_sec: 60, retry_after_sec: 50 } }]);
  });

  it('lets the client in again when the clock moves past the window', async () => {
    const store = new MemoryRateLimitStore();
    const logger = recordingLogger();
    const hit = (seconds: number) => throttle(store, { scope: 'login', clientKey: 'c', rate: { limit: 1, windowSec: 60 }, now: at(seconds), logger });
    await hit(0);
    expect((await rejection(hit(30))).code).toBe('rate_limited');
    await expect(hit(60)).resolves.toBeUndefined();
  });

  it('counts login and refresh separately', async () => {
    const store = new MemoryRateLimitStore();
    const logger = recordingLogger();
    const rate = { limit: 1, windowSec: 60 };
    await throttle(store, { scope: 'login', clientKey: 'c', rate, now: at(0), logger });
    await expect(throttle(store, { scope: 'refresh', clientKey: 'c', rate, now: at(0), logger })).resolves.toBeUndefined();
  });

  it('does nothing when the rate is disabled', async () => {
    const store: RateLimitStore = { hit: () => Promise.reject(new Error('must not be called')) };
    await expect(throttle(store, { scope: 'refresh', clientKey: 'c', rate: null, now: at(0), logger: recordingLogger() })).resolves.toBeUndefined();
  });

  it.each<[string, RateLimitStore]>([
    ['rejects', { hit: () => Promise.reject(new Error('connection to 198.51.100.7 refused')) }],
    [
      'throws synchronously',
      {
        hit: () => {
          throw new Error('boom');
        },
      },
    ],
    ['answers nonsense', { hit: () => Promise.resolve({ count: Number.NaN, resetAt: at(60) }) }],
    ['answers without a date', { hit: () => Promise.resolve({ count: 1 } as { count: number; resetAt: Date }) }],
  ])('refuses with 503 (an outage is not a rate limit) and logs without key or IP when the store %s', async (_, store) => {
    const logger = recordingLogger();
    const error = await rejection(throttle(store, { scope: 'login', clientKey: '198.51.100.7', rate: FIVE_PER_MINUTE, now: at(0), logger }));
    expect(error.code).toBe('service_unavailable');
    expect(error.status).toBe(503);
    expect(error.retryAfter).toBeUndefined();
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]!.event).toBe('rate_limiter_failed');
    expect(JSON.stringify(logger.lines)).not.toContain('198.51.100.7');
  });
});

describe('throttleAll (several budgets, one round trip with hitMany)', () => {
  const budgets = (logger: Logger, seconds: number) =>
    [
      { scope: 'login', clientKey: '198.51.100.7', rate: FIVE_PER_MINUTE, now: at(seconds), logger },
      { scope: 'login_network', clientKey: '198.51.100.0/24', rate: { limit: 2, windowSec: 60 }, now: at(seconds), logger },
      { scope: 'login_account', clientKey: 'acct', rate: FIVE_PER_MINUTE, now: at(seconds), logger },
    ] as const;

  it('makes one hitMany call and refuses at the first budget past its limit, spending none after it', async () => {
    const store = new MemoryRateLimitStore();
    const calls: string[] = [];
    const counting: RateLimitStore = {
      hit: (...args) => {
        calls.push('hit');
        return store.hit(...args);
      },
      hitMany: (...args) => {
        calls.push('hitMany');
        return store.hitMany(...args);
      },
    };
    const logger = recordingLogger();
    await throttleAll(counting, budgets(logger, 0));
    await throttleAll(counting, budgets(logger, 1));
    const error = await rejection(throttleAll(counting, budgets(logger, 2)));
    expect(error.code).toBe('rate_limited');
    expect(calls).toEqual(['hitMany', 'hitMany', 'hitMany']);
    // The network budget refused the third: the account's counter saw two hits, not three.
    expect((await store.hit('throttle:login_account:acct', 60, at(3))).count).toBe(3);
    expect(logger.lines.map((line) => line.event)).toEqual(['rate_limited']);
  });

  it('falls back to one hit per budget, in order, on a store without hitMany', async () => {
    const store = new MemoryRateLimitStore();
    const keys: string[] = [];
    const plain: RateLimitStore = {
      hit: (key, windowSec, now) => {
        keys.push(key);
        return store.hit(key, windowSec, now);
      },
    };
    await throttleAll(plain, budgets(recordingLogger(), 0));
    expect(keys).toEqual(['throttle:login:198.51.100.7', 'throttle:login_network:198.51.100.0/24', 'throttle:login_account:acct']);
  });

  it('fails closed (503) on a hitMany answer that does not stop at a refusal or misses hits', async () => {
    const answers = [
      [
        { count: 9, resetAt: at(60) },
        { count: 1, resetAt: at(60) },
      ],
      [{ count: 1, resetAt: at(60) }],
      [
        { count: Number.NaN, resetAt: at(60) },
        { count: 1, resetAt: at(60) },
        { count: 1, resetAt: at(60) },
      ],
    ];
    for (const answer of answers) {
      const store: RateLimitStore = { hit: () => Promise.reject(new Error('unused')), hitMany: async () => answer };
      const logger = recordingLogger();
      expect((await rejection(throttleAll(store, budgets(logger, 0)))).code).toBe('service_unavailable');
      expect(logger.lines.map((line) => line.event)).toEqual(['rate_limiter_failed']);
    }
  });
});
