import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryRateLimitStore, MemorySessionStore, type RateLimitStore, type SessionStore } from '@sessauth/core';
import { KyselyRateLimitStore, createKyselyStore, migrateToLatest, openKyselyFromUrl, type OpenedDatabase } from '@sessauth/kysely';
import { RedisRateLimitStore, RedisSessionStore, createRedisClient } from '@sessauth/redis';
import { POOL_SIZE, RATE_LIMIT_TABLE, REDIS_PREFIX, SESSION_TABLE, storeUrls, type StoreName, type StoreUrls } from '../config.js';

export interface OpenedStore {
  readonly name: StoreName;
  readonly sessions: SessionStore;
  readonly rateLimits: RateLimitStore;
  /** The Kysely instance behind a SQL store (seeding and clean-up use it). */
  readonly sql: OpenedDatabase | undefined;
  close(): Promise<void>;
}

/**
 * A sessauth store as a host would open it: the published helpers, prepared
 * statements on, a pool of POOL_SIZE connections, the
 * bench's own table names and key prefix (or those of `naming`).
 */
export interface StoreNaming {
  readonly sessionTable: string;
  readonly rateLimitTable: string;
  readonly redisPrefix: string;
}

export const DEFAULT_NAMING: StoreNaming = { sessionTable: SESSION_TABLE, rateLimitTable: RATE_LIMIT_TABLE, redisPrefix: REDIS_PREFIX };

export async function openStore(name: StoreName, urls: StoreUrls = storeUrls(), naming: StoreNaming = DEFAULT_NAMING): Promise<OpenedStore> {
  if (name === 'memory') {
    return { name, sessions: new MemorySessionStore(), rateLimits: new MemoryRateLimitStore(), sql: undefined, close: async () => {} };
  }
  if (name === 'redis') {
    const client = await createRedisClient(urls.redis);
    return {
      name,
      sessions: new RedisSessionStore({ client, keyPrefix: naming.redisPrefix }),
      rateLimits: new RedisRateLimitStore({ client, keyPrefix: naming.redisPrefix }),
      sql: undefined,
      close: async () => void client.disconnect(),
    };
  }
  const url = name === 'sqlite' ? `sqlite:${urls.sqlite}` : name === 'postgres' ? urls.postgres : urls.mariadb;
  if (name === 'sqlite') mkdirSync(dirname(urls.sqlite), { recursive: true });
  const sql = await openKyselyFromUrl(url, { poolSize: POOL_SIZE });
  await migrateToLatest(sql.db, { tableName: naming.sessionTable, rateLimitTableName: naming.rateLimitTable });
  return {
    name,
    sessions: createKyselyStore(sql.db, { tableName: naming.sessionTable, directReads: sql.directReads }),
    rateLimits: new KyselyRateLimitStore(sql.db, { tableName: naming.rateLimitTable }),
    sql,
    close: () => sql.destroy(),
  };
}
