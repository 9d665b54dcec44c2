import { describeRateLimitConformance, describeStoreConformance } from '@sessauth/conformance';
import { RedisRateLimitStore, RedisSessionStore } from '../src/index.js';
import { deleteByPrefix, randomPrefix, reachLocalRedis } from './redis-test-kit.js';

// The store contract (the 50-way rotation race x20 included) against a real Redis.
describeStoreConformance('redis (standalone)', async () => {
  const client = await reachLocalRedis();
  if (client === null) return null;
  const keyPrefix = randomPrefix();
  return {
    store: new RedisSessionStore({ client, keyPrefix }),
    close: async () => {
      await deleteByPrefix(client, keyPrefix);
      await client.quit();
    },
  };
});

// The same store with the owner cache off: every findSession follows the pointer.
describeStoreConformance(
  'redis (standalone, no owner cache)',
  async () => {
    const client = await reachLocalRedis();
    if (client === null) return null;
    const keyPrefix = randomPrefix();
    return {
      store: new RedisSessionStore({ client, keyPrefix, ownerCacheSize: 0 }),
      close: async () => {
        await deleteByPrefix(client, keyPrefix);
        await client.quit();
      },
    };
  },
  { raceRepeats: 3 },
);

describeRateLimitConformance('redis', async () => {
  const client = await reachLocalRedis();
  if (client === null) return null;
  const keyPrefix = randomPrefix();
  return {
    store: new RedisRateLimitStore({ client, keyPrefix }),
    close: async () => {
      await deleteByPrefix(client, keyPrefix);
      await client.quit();
    },
  };
});
