import { type Column, type SQL, sql } from 'drizzle-orm';
import type { CounterState } from './engine.js';
import type { RateLimitTable } from './tables.js';

/** The column expressions of a hit: a hit after the window ended starts a new one. */
export function counterUpdate(t: RateLimitTable, nowMs: number, resetAtMs: number): { count: SQL; resetAt: SQL } {
  return {
    count: sql`case when ${t.resetAt} <= ${nowMs} then 1 else ${t.count} + 1 end`,
    resetAt: sql`case when ${t.resetAt} <= ${nowMs} then ${resetAtMs} else ${t.resetAt} end`,
  };
}

/**
 * The `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` builder PostgreSQL and SQLite share (each
 * typed by its own dialect; this is the common shape, as `QueryDb` is for the other statements).
 */
export interface UpsertReturningDb {
  insert(table: RateLimitTable): {
    values(values: Record<string, unknown>): {
      onConflictDoUpdate(config: { target: Column; set: Record<string, SQL> }): {
        returning(fields: Record<string, Column>): PromiseLike<Array<{ count: unknown; resetAt: unknown }>>;
      };
    };
  };
}

/** PostgreSQL and SQLite: one upsert with RETURNING, atomic on its own. */
export async function upsertCounterReturning(
  db: UpsertReturningDb,
  t: RateLimitTable,
  key: string,
  nowMs: number,
  windowMs: number,
): Promise<CounterState> {
  const resetAtMs = nowMs + windowMs;
  const rows = await db
    .insert(t)
    .values({ counterKey: key, count: 1, resetAt: resetAtMs })
    .onConflictDoUpdate({ target: t.counterKey, set: counterUpdate(t, nowMs, resetAtMs) })
    .returning({ count: t.count, resetAt: t.resetAt });
  const row = rows[0];
  if (row === undefined) throw new Error('counter upsert returned no row');
  return { count: Number(row.count), resetAtMs: Number(row.resetAt) };
}
