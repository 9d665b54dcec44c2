import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryRateLimitStore, MemorySessionStore, consoleLogger, type RateLimitStore, type SessionStore } from '@sessauth/core';
import { KyselyRateLimitStore, createKyselyStore, migrateToLatest, openKyselyFromUrl } from '@sessauth/kysely';
import { RedisRateLimitStore, RedisSessionStore, checkPersistence, createRedisClient } from '@sessauth/redis';

export interface ExampleStores {
  readonly sessionStore: SessionStore;
  readonly rateLimitStore: RateLimitStore;
  close(): Promise<void>;
}

/**
 * Picks the store from `SESSAUTH_STORE`: `memory:`, `sqlite:<path>` (embedded, the
 * default), `postgres://…`, `mysql://…`, `redis://…`. SQL stores migrate at start.
 * The rate limiter lives beside the sessions so that a fleet shares one limit.
 * `activity`: the SQL stores keep the activity history (JWT_SESSION_ACTIVITY); the memory
 * and Redis stores always can.
 */
export async function storesFromUrl(url: string, { activity = false }: { activity?: boolean } = {}): Promise<ExampleStores> {
  const scheme = /^([a-z]+):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'memory') {
    return { sessionStore: new MemorySessionStore(), rateLimitStore: new MemoryRateLimitStore(), close: async () => {} };
  }
  if (scheme === 'redis' || scheme === 'rediss') {
    const client = await createRedisClient(url);
    // Warns when the server could lose an acknowledged revocation (no fsync'd AOF).
    await checkPersistence(client, consoleLogger, 2000);
    return {
      sessionStore: new RedisSessionStore({ client }),
      rateLimitStore: new RedisRateLimitStore({ client }),
      close: async () => void client.disconnect(),
    };
  }
  if (scheme === 'sqlite' || scheme === 'postgres' || scheme === 'postgresql' || scheme === 'mysql' || scheme === 'mariadb') {
    if (scheme === 'sqlite' && !url.startsWith('sqlite::memory:')) mkdirSync(dirname(url.slice('sqlite:'.length)), { recursive: true });
    const opened = await openKyselyFromUrl(url);
    await migrateToLatest(opened.db);
    return {
      sessionStore: createKyselyStore(opened.db, { directReads: opened.directReads, activity }),
      rateLimitStore: new KyselyRateLimitStore(opened.db),
      close: () => opened.destroy(),
    };
  }
  throw new Error(`SESSAUTH_STORE: unsupported store "${scheme ?? url}:" (use memory:, sqlite:<path>, postgres://, mysql://, redis://)`);
}
