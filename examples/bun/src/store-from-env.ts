import { MemorySessionStore, type SessionStore } from '@sessauth/core';
import { createKyselyStore, migrateToLatest } from '@sessauth/kysely';
import { createRedisClient, RedisSessionStore } from '@sessauth/redis';
import { openBunSqlite } from './bun-sqlite.js';

/**
 * `SESSAUTH_STORE`: `memory` (one process, lost on restart), `sqlite:<file>` (bun:sqlite, no
 * native module) or a `redis://` URL (ioredis, which runs on Bun as on Node).
 */
export async function storeFromEnv(spec = 'memory'): Promise<SessionStore> {
  if (spec.startsWith('redis://') || spec.startsWith('rediss://')) return new RedisSessionStore({ client: await createRedisClient(spec) });
  if (spec.startsWith('sqlite:')) {
    const db = openBunSqlite(spec.slice('sqlite:'.length));
    await migrateToLatest(db);
    return createKyselyStore(db);
  }
  if (spec !== 'memory') throw new Error(`SESSAUTH_STORE: expected memory, sqlite:<file> or redis://..., got ${spec}`);
  return new MemorySessionStore();
}
