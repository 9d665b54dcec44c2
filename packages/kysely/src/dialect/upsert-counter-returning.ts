import { sql, type Kysely } from 'kysely';
import type { RateLimitDb } from '../schema.js';
import type { CounterState } from './sql-dialect.js';

/**
 * PostgreSQL and SQLite share this statement: one `INSERT ... ON CONFLICT DO UPDATE
 * ... RETURNING`, atomic on its own. A hit after the window ended starts a new one.
 */
export async function upsertCounterReturning(
  db: Kysely<RateLimitDb>,
  table: string,
  key: string,
  nowMs: number,
  windowMs: number,
): Promise<CounterState> {
  const resetAtMs = nowMs + windowMs;
  const t = sql.table(table);
  const ref = (column: string) => sql.ref(`${table}.${column}`);
  const result = await sql<{ count: number | string; reset_at: number | string }>`
    insert into ${t} (counter_key, count, reset_at) values (${key}, 1, ${resetAtMs})
    on conflict (counter_key) do update set
      count = case when ${ref('reset_at')} <= ${nowMs} then 1 else ${ref('count')} + 1 end,
      reset_at = case when ${ref('reset_at')} <= ${nowMs} then ${resetAtMs} else ${ref('reset_at')} end
    returning count, reset_at`.execute(db);
  const row = result.rows[0];
  if (row === undefined) throw new Error('counter upsert returned no row');
  return { count: Number(row.count), resetAtMs: Number(row.reset_at) };
}
