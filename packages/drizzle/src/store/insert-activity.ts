import { and, desc, eq, lte } from 'drizzle-orm';
import type { ActivityRow } from './activity-row.js';
import type { QueryDb } from './engine.js';
import type { ActivityTable } from './tables.js';

/** Inside an engine's transaction (PostgreSQL, MySQL): insert, then trim each named session to its newest `max`. */
export async function insertAndTrim(db: QueryDb, a: ActivityTable, rows: readonly ActivityRow[], max: number): Promise<void> {
  await db.insert(a).values(rows as unknown as Record<string, unknown>);
  for (const sessionId of new Set(rows.map((row) => row.sessionId))) {
    const [beyond] = await db.select<{ id: string }>({ id: a.id }).from(a).where(eq(a.sessionId, sessionId)).orderBy(desc(a.id)).limit(1).offset(max);
    if (beyond !== undefined) await db.delete(a).where(and(eq(a.sessionId, sessionId), lte(a.id, beyond.id)));
  }
}
