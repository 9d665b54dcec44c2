import { StoreUnavailableError } from '@sessauth/core';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { READY_BOUND_MS } from '../src/create-redis-client.js';
import { RedisRateLimitStore, RedisSessionStore, createRedisClient, createRedisSentinelClient, recommendedRedisOptions } from '../src/index.js';
import { within } from './redis-test-kit.js';

// Port 1 on loopback: nothing listens there, so every connection attempt is refused.
const CLOSED = { host: '127.0.0.1', port: 1 };
// A bound on the failure path (it must settle, and fail closed), not a benchmark.
const BOUND_MS = 3000;

describe('redis unreachable: the store and the limiter fail closed, promptly', () => {
  const clients: Redis[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  // The refused connections are expected here; keep them out of the test output.
  const quiet = (client: Redis): Redis => {
    clients.push(client.on('error', () => undefined));
    return client;
  };

  it('with the recommended options: findSession and hit reject with StoreUnavailableError', async () => {
    const client = quiet(new Redis({ ...CLOSED, ...recommendedRedisOptions }));
    const store = new RedisSessionStore({ client, keyPrefix: 'sessauth-test:closed:' });
    const limiter = new RedisRateLimitStore({ client, keyPrefix: 'sessauth-test:closed:' });

    const find = within(BOUND_MS, store.findSession('some-session-id'));
    await expect(find).rejects.toBeInstanceOf(StoreUnavailableError);
    // The batched read (coalesced guard reads) fails closed the same way, as a whole.
    await expect(within(BOUND_MS, store.findSessions(['some-session-id', 'another-id']))).rejects.toBeInstanceOf(StoreUnavailableError);
    const hit = within(BOUND_MS, limiter.hit('login:203.0.113.7', 60, new Date()));
    await expect(hit).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(hit).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });
  });

  it("with ioredis' defaults (offline queue on, 20 retries): the store's own time bound still rejects", async () => {
    const client = quiet(new Redis(CLOSED)); // queues commands while it keeps reconnecting
    const store = new RedisSessionStore({ client, keyPrefix: 'sessauth-test:closed:', operationTimeoutMs: 300 });
    const limiter = new RedisRateLimitStore({ client, keyPrefix: 'sessauth-test:closed:', operationTimeoutMs: 300 });

    await expect(within(BOUND_MS, store.findSession('some-session-id'))).rejects.toThrow(/timed out after 300 ms/);
    await expect(within(BOUND_MS, store.findSessions(['some-session-id', 'another-id']))).rejects.toThrow(/findSessions timed out after 300 ms/);
    await expect(
      within(
        BOUND_MS,
        store.rotateRefresh({
          sessionId: 's',
          userId: 'u',
          presentedJti: 'a',
          nextJti: 'b',
          securityStamp: 'x',
          now: new Date(),
        }),
      ),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(within(BOUND_MS, limiter.hit('k', 60, new Date()))).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('createRedisClient rejects with StoreUnavailableError', async () => {
    const attempt = within(BOUND_MS, createRedisClient(`redis://${CLOSED.host}:${CLOSED.port}`));
    await expect(attempt).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it(
    'createRedisSentinelClient with no sentinel answering rejects with StoreUnavailableError (ioredis alone retries for ever)',
    async () => {
      // Not a speed check: without the ready bound this never settles.
      const attempt = within(READY_BOUND_MS + 10_000, createRedisSentinelClient({ sentinels: [CLOSED], name: 'nobody' }));
      await expect(attempt).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(attempt).rejects.toThrow(/redis sentinel \(primary "nobody"\): could not connect to 127\.0\.0\.1:1/);
    },
    READY_BOUND_MS + 20_000,
  );
});
