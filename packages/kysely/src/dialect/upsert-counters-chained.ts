import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { RateLimitDb } from '../schema.js';
import type { CounterHit, CounterState } from './sql-dialect.js';

/**
 * PostgreSQL: several hits in one statement, one data-modifying CTE per counter, each
 * `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` as `upsertCounterReturning` makes it. Each
 * after the first selects from the one before, so it runs only when that one's new count is
 * within its limit: the hits stop at the first refusal, and the statement is atomic on its own.
 * The counters of one call must be distinct (one statement cannot change a row twice).
 */
export async function upsertCountersChained(
  db: Kysely<RateLimitDb>,
  table: string,
  hits: readonly CounterHit[],
  nowMs: number,
): Promise<CounterState[]> {
  const t = sql.table(table);
  const ref = (column: string) => sql.ref(`${table}.${column}`);
  const steps: RawBuilder<unknown>[] = hits.map((hit, index) => {
    const resetAtMs = nowMs + hit.windowMs;
    const previous = hits[index - 1];
    const source =
      index === 0 || previous === undefined
        ? sql`values (${hit.key}, 1, ${resetAtMs}::bigint)`
        : sql`select ${hit.key}, 1, ${resetAtMs}::bigint from ${sql.ref(`h${index - 1}`)} where count <= ${previous.limit}`;
    return sql`${sql.ref(`h${index}`)} as (
      insert into ${t} (counter_key, count, reset_at) ${source}
      on conflict (counter_key) do update set
        count = case when ${ref('reset_at')} <= ${nowMs} then 1 else ${ref('count')} + 1 end,
        reset_at = case when ${ref('reset_at')} <= ${nowMs} then ${resetAtMs} else ${ref('reset_at')} end
      returning count, reset_at)`;
  });
  const answers = hits.map((_, index) => sql`select ${index}::int as step, count, reset_at from ${sql.ref(`h${index}`)}`);
  const result = await sql<{ step: number; count: number | string; reset_at: number | string }>`with ${sql.join(steps, sql`, `)}
    ${sql.join(answers, sql` union all `)} order by step`.execute(db);
  return result.rows.map((row) => ({ count: Number(row.count), resetAtMs: Number(row.reset_at) }));
}
