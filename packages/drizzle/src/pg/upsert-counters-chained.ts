import { getTableName, type SQL, sql } from 'drizzle-orm';
import type { CounterHit, CounterState } from '../store/engine.js';
import type { RateLimitTable } from '../store/tables.js';

/**
 * Several hits in one statement (the rate-limit store's `hitMany`): one data-modifying CTE per
 * counter, each the upsert `hitCounter` makes. Each after the first selects from the one
 * before, so it runs only when that one's new count is within its limit: the hits stop at the
 * first refusal, and the statement is atomic on its own. The keys of one call are distinct
 * (one statement cannot change a row twice). The same statement as `@sessauth/kysely`'s.
 */
export async function upsertCountersChained(
  db: { execute(query: SQL): PromiseLike<unknown> },
  table: RateLimitTable,
  hits: readonly CounterHit[],
  nowMs: number,
): Promise<CounterState[]> {
  // The target as the schema names it (schema-qualified where it is); its columns by its bare name.
  const bare = sql.identifier(getTableName(table));
  const column = (c: string) => sql`${bare}.${sql.identifier(c)}`;
  const step = (index: number) => sql.identifier(`h${index}`);
  const steps: SQL[] = hits.map((hit, index) => {
    const resetAtMs = nowMs + hit.windowMs;
    const previous = hits[index - 1];
    const source =
      previous === undefined
        ? sql`values (${hit.key}, 1, ${resetAtMs}::bigint)`
        : sql`select ${hit.key}, 1, ${resetAtMs}::bigint from ${step(index - 1)} where "count" <= ${previous.limit}`;
    return sql`${step(index)} as (
      insert into ${table} ("counter_key", "count", "reset_at") ${source}
      on conflict ("counter_key") do update set
        "count" = case when ${column('reset_at')} <= ${nowMs} then 1 else ${column('count')} + 1 end,
        "reset_at" = case when ${column('reset_at')} <= ${nowMs} then ${resetAtMs}::bigint else ${column('reset_at')} end
      returning "count", "reset_at")`;
  });
  const answers = hits.map((_, index) => sql`select ${index}::int as "step", "count", "reset_at" from ${step(index)}`);
  const result = await db.execute(sql`with ${sql.join(steps, sql`, `)} ${sql.join(answers, sql` union all `)} order by "step"`);
  // node-postgres and PGlite answer { rows }, postgres.js the rows themselves.
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ count: unknown; reset_at: unknown }>;
  return rows.map((row) => ({ count: Number(row.count), resetAtMs: Number(row.reset_at) }));
}
