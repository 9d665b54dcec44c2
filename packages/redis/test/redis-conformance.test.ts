import { describeRateLimitConformance, describeStoreConformance, type StoreUnderTest } from '@sessauth/conformance';
import { RedisRateLimitStore, RedisSessionStore, type RedisSessionStoreOptions } from '../src/index.js';
import { deleteByPrefix, randomPrefix, reachLocalRedis } from './redis-test-kit.js';

/**
 * A store on its own key prefix, and a second instance over the same keys with its
 * own client and owner cache (a second app server): the kit runs its cross-instance
 * cases (revoke on one, refused on the other; rotate on one, reuse on the other).
 */
async function storeUnderTest(options: Partial<RedisSessionStoreOptions> = {}): Promise<StoreUnderTest | null> {
  const client = await reachLocalRedis();
  if (client === null) return null;
  const keyPrefix = randomPrefix();
  return {
    store: new RedisSessionStore({ ...options, client, keyPrefix }),
    openSecondInstance: async () => {
      const other = await reachLocalRedis();
      if (other === null) throw new Error('Redis answered the first client but not the second');
      return { store: new RedisSessionStore({ ...options, client: other, keyPrefix }), close: async () => void (await other.quit()) };
    },
    close: async () => {
      await deleteByPrefix(client, keyPrefix);
      await client.quit();
    },
  };
}

// The store contract (the 50-way rotation race x20 included) against a real Redis.
describeStoreConformance('redis (standalone)', () => storeUnderTest());

// The same store with the owner cache off: every findSession follows the pointer.
describeStoreConformance('redis (standalone, no owner cache)', () => storeUnderTest({ ownerCacheSize: 0 }), { raceRepeats: 3 });

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
