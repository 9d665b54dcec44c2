import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.js';

export type AppDatabase = BetterSQLite3Database<typeof schema>;

/**
 * The app's SQLite database through drizzle, migrated to the newest migration in ./drizzle
 * (made by `drizzle-kit generate` from ./schema.ts, sessauth's tables included). WAL lets reads
 * go on beside a writer; `timeout: 0` leaves no busy wait in the driver, which would block the
 * event loop: the sessauth stores retry SQLITE_BUSY themselves, within their deadline.
 */
export function openDatabase(url: string): { db: AppDatabase; close(): void } {
  if (!url.startsWith('sqlite:')) throw new Error(`SESSAUTH_STORE: this example runs on SQLite (sqlite:<path>), got "${url.split(':')[0]}:"`);
  const path = url.slice('sqlite:'.length);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { timeout: 0 });
  sqlite.pragma('journal_mode = WAL');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: fileURLToPath(new URL('../../drizzle', import.meta.url)) });
  return { db, close: () => sqlite.close() };
}
