import { sql, type Kysely } from 'kysely';
import type { StoreName } from '../config.js';

/**
 * Fresh planner statistics for a table just seeded. A production server's autovacuum
 * analyzes a table soon after a bulk insert; this machine's PostgreSQL runs with
 * autovacuum off, and a never-analyzed session table led its planner to scan every
 * active session through the `expired_at` index for a user's list (and for the login
 * cap) instead of taking the per-user index.
 */
export async function analyzeTable(store: StoreName, db: Kysely<unknown>, table: string): Promise<void> {
  if (store === 'postgres') await sql`analyze ${sql.table(table)}`.execute(db);
  else if (store === 'mariadb') await sql`analyze table ${sql.table(table)}`.execute(db);
  else if (store === 'sqlite') await sql`analyze ${sql.table(table)}`.execute(db);
}
