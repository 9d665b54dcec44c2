import { MemorySessionStore, type SessionStore } from '@sessauth/core';
import { createKyselyStore, migrateToLatest } from '@sessauth/kysely';
import { createRedisClient, RedisSessionStore } from '@sessauth/redis';
import { openNodeSqlite } from './node-sqlite.js';

/**
 * `SESSAUTH_STORE`: `memory` (one process, lost on restart), `sqlite:<file>` (Deno's built-in
 * node:sqlite, no native module) or a `redis://` URL (ioredis over Deno's node:net).
 */
export async function storeFromEnv(spec = 'memory'): Promise<SessionStore> {
  if (spec.startsWith('redis://') || spec.startsWith('rediss://')) return new RedisSessionStore({ client: await createRedisClient(spec) });
  if (spec.startsWith('sqlite:')) {
    const db = openNodeSqlite(spec.slice('sqlite:'.length));
    await migrateToLatest(db);
    return createKyselyStore(db);
  }
  if (spec !== 'memory') throw new Error(`SESSAUTH_STORE: expected memory, sqlite:<file> or redis://..., got ${spec}`);
  return new MemorySessionStore();
}
