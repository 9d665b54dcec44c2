import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { openKyselyFromUrl } from '@sessauth/kysely';
import { storeUrls, type StoreName } from '../config.js';

/** The database servers' own versions, for the results' header. */
export async function serverVersions(stores: readonly StoreName[]): Promise<Record<string, string>> {
  const urls = storeUrls();
  const versions: Record<string, string> = {};
  for (const [name, url] of [
    ['postgres', urls.postgres],
    ['mariadb', urls.mariadb],
  ] as const) {
    if (!stores.includes(name)) continue;
    const opened = await openKyselyFromUrl(url, { poolSize: 1 });
    try {
      const { rows } = await sql<{ v: string }>`select version() as v`.execute(opened.db);
      versions[name] = rows[0]?.v.split(' on ')[0] ?? 'unknown';
    } finally {
      await opened.destroy();
    }
  }
  if (stores.includes('redis')) {
    const client = new Redis(urls.redis);
    const info = await client.info('server');
    versions.redis = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
    client.disconnect();
  }
  return versions;
}
