import { statementValues } from './statement-values.js';

/**
 * One rate-limit hit on MySQL or MariaDB as one statement, shared by the stores that keep counters
 * in a MySQL/MariaDB table of the shared layout (@sessauth/kysely, @sessauth/drizzle). There is no
 * RETURNING on an upsert there; the upsert hands the new count and window end back through
 * `LAST_INSERT_ID(expr)`, which the OK packet carries (the classic MySQL counter): (window end -
 * now) in ms times 2^24 plus the count, below 2^53 (exact in a JS number). A fresh row sets no id
 * (0): count 1, a new window. Assignments run left to right, so `count` is decided before
 * `reset_at` changes. The upsert locks the row for the statement, so concurrent hits count once each.
 */
const COUNT_BITS = 2 ** 24;

/** Windows shorter than this (about 74 h) fit the packed answer; a store reads longer ones back. */
export const MYSQL_PACKED_WINDOW_LIMIT_MS = 2 ** 28;

/** The hit's statement, with `?` for each value unless `placeholder` writes them another way. */
export function mysqlCounterHitStatement(
  table: string,
  key: string,
  nowMs: number,
  windowMs: number,
  placeholder: (index: number) => string = () => '?',
): { text: string; parameters: unknown[] } {
  const { parameters, slot } = statementValues(placeholder);
  const resetAtMs = nowMs + windowMs;
  const text = `insert into \`${table.replaceAll('`', '``')}\` (counter_key, count, reset_at) values (${slot(key)}, 1, ${slot(resetAtMs)})
    on duplicate key update
      count = if(reset_at <= ${slot(nowMs)}, 1, count + 1),
      reset_at = if(reset_at <= ${slot(nowMs)}, ${slot(resetAtMs)}, reset_at)
        + 0 * last_insert_id(least(if(reset_at <= ${slot(nowMs)}, ${slot(resetAtMs)}, reset_at) - ${slot(nowMs)}, ${MYSQL_PACKED_WINDOW_LIMIT_MS - 1}) * ${COUNT_BITS} + least(count, ${COUNT_BITS - 1}))`;
  return { text, parameters };
}

/** The count and window end the hit's OK packet carries (its insert id). */
export function mysqlCounterFromInsertId(
  insertId: number | bigint | string | undefined,
  nowMs: number,
  windowMs: number,
): { count: number; resetAtMs: number } {
  const packed = Number(insertId ?? 0);
  if (packed === 0) return { count: 1, resetAtMs: nowMs + windowMs };
  // A window end stored by a longer window of an earlier configuration reads as at most ~74 h away.
  return { count: packed % COUNT_BITS, resetAtMs: nowMs + Math.floor(packed / COUNT_BITS) };
}
