import { MemorySessionStore } from '@sessauth/core';
import { createKyselyStore, migrateToLatest } from '@sessauth/kysely';
import { createRedisClient, RedisSessionStore } from '@sessauth/redis';
import type { Kysely } from 'kysely';
import type { CellStores } from './remote-engine.js';

/** A store cell's settings, from the environment the suite starts the runtime with. */
export interface CellSettings {
  /** `memory`, `redis` or `sqlite`. */
  readonly kind: string;
  /** Redis: the URL; SQLite: the file. */
  readonly location: string;
  /** The Redis key prefix or SQL table name of the cell (the suite removes it after). */
  readonly name: string;
}

export function cellSettings(env: (name: string) => string | undefined): CellSettings {
  return {
    kind: env('SESSAUTH_CELL_STORE') ?? 'memory',
    location: env('SESSAUTH_CELL_LOCATION') ?? '',
    name: env('SESSAUTH_CELL_NAME') ?? 'sessauth_cell',
  };
}

/**
 * The cell's session store: memory, Redis through ioredis, or SQLite through the runtime's own
 * driver behind Kysely (`openSqlite`), migrated first. As in the Node matrix, each test app keeps
 * its own in-memory counters: a limiter shared by the cell would carry one test's hits into the next.
 */
export async function openCell(cell: CellSettings, openSqlite: (file: string) => Kysely<unknown>): Promise<CellStores> {
  if (cell.kind === 'redis') {
    const client = await createRedisClient(cell.location);
    return { store: new RedisSessionStore({ client, keyPrefix: cell.name }) };
  }
  if (cell.kind === 'sqlite') {
    const db = openSqlite(cell.location);
    await migrateToLatest(db, { tableName: cell.name, rateLimitTableName: `${cell.name}_rl` });
    return { store: createKyselyStore(db, { tableName: cell.name }) };
  }
  if (cell.kind !== 'memory') throw new Error(`no ${cell.kind} store here`);
  return { store: new MemorySessionStore() };
}
