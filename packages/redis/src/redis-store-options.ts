import type { Logger } from '@sessauth/core';
import type { RedisDurability } from './durability.js';
import type { RedisLike } from './redis-like.js';

export interface RedisSessionStoreOptions {
  /** An ioredis `Redis` or `Cluster` (see `createRedisClient` for the options it should have). */
  readonly client: RedisLike;
  /**
   * Prepended to every key. A prefix holding a `{hash tag}` pins every key to one
   * cluster slot (correct, but no longer spread across nodes).
   * @default 'sessauth:'
   */
  readonly keyPrefix?: string;
  /**
   * How long a revoked or naturally ended session stays in Redis (and in the admin
   * listing) before its TTL removes it.
   * @default 604800 (7 days)
   */
  readonly retentionSeconds?: number;
  /**
   * Upper bound of one store call, all its round trips included. Keep it above the
   * client's `commandTimeout`, which should fire first.
   * @default 2000
   */
  readonly operationTimeoutMs?: number;
  /**
   * Session-id-to-owner entries kept in process (ownership never changes), so
   * `findSession` is one round trip once an id has been seen. 0 disables the cache.
   * @default 10000
   */
  readonly ownerCacheSize?: number;
  /** Where `checkPersistence` and an unmet `durability` write their warnings. @default consoleLogger */
  readonly logger?: Logger;
  /**
   * Off by default. With `{ replicas, timeoutMs }`, every state change (login, refresh, logout,
   * logout-all, rename, step-up, the activity history, the security-event outbox) is followed by
   * `WAIT replicas timeoutMs` on the same
   * connection; a change that fewer replicas acknowledged in time fails with
   * `StoreUnavailableError` (503) and is logged (`redis_durability_unmet`). It narrows what a
   * failover can lose; it does not make Redis strongly consistent: see
   * docs/running-on-more-than-one-machine.md for the server and Sentinel settings it needs.
   */
  readonly durability?: RedisDurability;
}

export const DEFAULT_RETENTION_SECONDS = 7 * 24 * 60 * 60;
export const DEFAULT_OPERATION_TIMEOUT_MS = 2000;
export const DEFAULT_OWNER_CACHE_SIZE = 10_000;
