import { createSessauth, type Logger, type RateLimitStore, type SessionStore } from '@sessauth/core';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisRateLimitStore, RedisSessionStore, recommendedRedisOptions } from '../src/index.js';
import { randomPrefix, reachLocalRedis } from './redis-test-kit.js';

type Line = { event: string; fields: Record<string, unknown> | undefined };

function recordingLogger(): Logger & { warnings: Line[] } {
  const warnings: Line[] = [];
  return { warnings, warn: (event, fields) => warnings.push({ event, fields }), error: () => undefined };
}

function start(store: SessionStore, rateLimitStore: RateLimitStore, logger: Logger) {
  return createSessauth({
    options: { secretKey: 'an-hmac-secret-of-exactly-32-by!', issuer: 'https://issuer.test', audience: 'aud' },
    store,
    rateLimitStore,
    users: { findById: async () => null, idOf: () => '', securityStamp: () => '' },
    authenticator: async () => {
      throw new Error('not called');
    },
    logger,
  });
}

describe('verify(): Redis has no schema; the check is that the server answers and runs scripts', () => {
  const clients: Redis[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
  });

  it('resolves on a live Redis, and createSessauth starts without a warning', async (test) => {
    const client = await reachLocalRedis();
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    clients.push(client);
    const keyPrefix = randomPrefix();
    const store = new RedisSessionStore({ client, keyPrefix });
    const limiter = new RedisRateLimitStore({ client, keyPrefix });
    await expect(store.checkSchema()).resolves.toBeUndefined();
    await expect(limiter.checkSchema()).resolves.toBeUndefined();
    const logger = recordingLogger();
    await start(store, limiter, logger);
    expect(logger.warnings).toEqual([]);
  });

  it('Redis unreachable at start-up: createSessauth starts and logs store_unverified for both stores', async () => {
    // Port 1 on loopback: nothing listens there.
    const client = new Redis({ host: '127.0.0.1', port: 1, ...recommendedRedisOptions }).on('error', () => undefined);
    clients.push(client);
    const store = new RedisSessionStore({ client, keyPrefix: 'sessauth-test:closed:' });
    const limiter = new RedisRateLimitStore({ client, keyPrefix: 'sessauth-test:closed:' });
    const logger = recordingLogger();
    await start(store, limiter, logger);
    expect(logger.warnings.map((line) => [line.event, line.fields?.store, line.fields?.error])).toEqual([
      ['store_unverified', 'session', 'StoreUnavailableError'],
      ['store_unverified', 'rate_limit', 'StoreUnavailableError'],
    ]);
  });
});
