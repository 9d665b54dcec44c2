import type { RedisLike } from './redis-like.js';
import { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
import type { RedisSessionStoreOptions } from './redis-store-options.js';
import { RedisSessionStore } from './redis-store.js';

/**
 * The session store over an ioredis client: the same shape as `createKyselyStore(db, options)`,
 * so switching stores changes one line.
 */
export function createRedisStore(client: RedisLike, options: Omit<RedisSessionStoreOptions, 'client'> = {}): RedisSessionStore {
  return new RedisSessionStore({ ...options, client });
}

/** The shared rate-limit counters over an ioredis client (it may be the session store's). */
export function createRedisRateLimitStore(client: RedisLike, options: Omit<RedisRateLimitStoreOptions, 'client'> = {}): RedisRateLimitStore {
  return new RedisRateLimitStore({ ...options, client });
}
