import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '@sessauth/core';
import { createKyselyStore, migrateToLatest, openKyselyFromUrl } from '@sessauth/kysely';

export interface SqliteStore {
  readonly store: SessionStore;
  close(): Promise<void>;
}

/**
 * The Kysely store on a fresh SQLite file (WAL, prepared statements: the examples'
 * default), migrated. One per test file; the generated runs share it and keep apart
 * by using fresh user ids. `close` deletes the file.
 */
export async function openSqliteStore(): Promise<SqliteStore> {
  const file = join(tmpdir(), `sessauth-fuzz-${randomBytes(6).toString('hex')}.db`);
  const opened = await openKyselyFromUrl(`sqlite:${file}`);
  await migrateToLatest(opened.db);
  const store = createKyselyStore(opened.db, { directReads: opened.directReads });
  return {
    store,
    close: async () => {
      await opened.destroy();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    },
  };
}
