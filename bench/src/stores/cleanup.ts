import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import { openKyselyFromUrl } from '@sessauth/kysely';
import { storeUrls, type StoreUrls } from '../config.js';

/** Everything the bench left on the shared servers: `bench16_*` tables and schemas, `bench16:*` keys, its SQLite folder. */
export async function cleanUp(urls: StoreUrls = storeUrls()): Promise<void> {
  rmSync(dirname(urls.sqlite), { recursive: true, force: true });
  for (const url of [urls.postgres, urls.mariadb]) {
    const opened = await openKyselyFromUrl(url, { poolSize: 1 });
    try {
      await dropBenchTables(opened.db, url.startsWith('postgres'));
    } finally {
      await opened.destroy();
    }
  }
  await deleteBenchKeys(urls.redis);
}

async function dropBenchTables(db: Kysely<unknown>, postgres: boolean): Promise<void> {
  if (postgres) await sql`drop schema if exists bench16_better_auth cascade`.execute(db);
  const tables = await db.introspection.getTables();
  for (const table of tables.filter((t) => t.name.startsWith('bench16_'))) {
    await sql`drop table if exists ${sql.table(table.name)}${postgres ? sql` cascade` : sql``}`.execute(db);
  }
}

export async function deleteBenchKeys(url: string, pattern = 'bench16:*'): Promise<void> {
  const client = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await client.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
