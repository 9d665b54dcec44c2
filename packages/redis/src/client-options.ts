import type { RedisLike } from './redis-like.js';

/**
 * Refuses, when a store is built (so a host learns it at start, not from a wrong answer later),
 * client options the stores cannot work with:
 * - `enableAutoPipelining` on a cluster client: ioredis sends auto-pipelined commands as `Cluster`
 *   pipelines, which it can split over two connections during a failover, after which a
 *   connection's replies go to the wrong commands (`slot-pipeline.ts`).
 * - for the session store, ioredis' own `keyPrefix` (top level or a cluster's `redisOptions`): the
 *   store's scripts build some keys from a base they are passed, where ioredis adds no prefix, so
 *   part of a session would be written under other keys. The store's `keyPrefix` does the same job.
 */
export function refuseUnsupportedClient(client: RedisLike, store: 'RedisSessionStore' | 'RedisRateLimitStore'): void {
  const options = client.options;
  if (client.isCluster === true && options?.enableAutoPipelining === true) {
    throw new TypeError(
      `${store}: a cluster client with enableAutoPipelining is not supported (ioredis can split its pipelines over two connections during a failover); turn it off, the store sends its reads at once itself`,
    );
  }
  if (store === 'RedisSessionStore' && (Boolean(options?.keyPrefix) || Boolean(options?.redisOptions?.keyPrefix))) {
    throw new TypeError(
      `${store}: the client's own keyPrefix is not supported (the store's scripts build keys it would not reach); set the store's keyPrefix option instead`,
    );
  }
}
