import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from './generated/prisma/client.js';

/**
 * The app's Prisma Client over SQLite through the driver adapter (no query engine binary).
 * `timeout: 0` leaves no busy wait in the driver, which would block the event loop: the
 * sessauth stores retry SQLITE_BUSY themselves, within their deadline.
 */
export function openPrisma(url: string): PrismaClient {
  if (!url.startsWith('sqlite:')) throw new Error(`SESSAUTH_STORE: this example runs on SQLite (sqlite:<path>), got "${url.split(':')[0]}:"`);
  return new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${url.slice('sqlite:'.length)}`, timeout: 0 }) });
}
