export { RedisSessionStore } from './redis-store.js';
export type { RedisSessionStoreOptions } from './redis-store-options.js';
export { RedisRateLimitStore } from './redis-rate-limit-store.js';
export type { RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
export type { RedisLike } from './redis-like.js';
export { createRedisClient, createRedisClusterClient, recommendedRedisOptions } from './create-redis-client.js';
export { checkPersistence, PERSISTENCE_UNKNOWN, PERSISTENCE_WARNING } from './check-persistence.js';
export type { NodePersistence, PersistenceReport } from './check-persistence.js';
export { DEFAULT_KEY_PREFIX } from './keys.js';
