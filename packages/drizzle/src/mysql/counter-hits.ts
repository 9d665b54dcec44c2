import { mariadbCounterHitsStatement } from '@sessauth/core/store';
import { getTableName, type SQL } from 'drizzle-orm';
import { bound, marker } from '../store/bound-statement.js';
import type { CounterHit, CounterState } from '../store/engine.js';
import type { RateLimitTable } from '../store/tables.js';
import { lastSelectedRow, runCompoundStatement } from './compound-statement.js';

/**
 * The hits in order in one round trip on MariaDB, stopping after the first past its limit: the
 * core's compound statement (`mariadbCounterHitsStatement`). Null on MySQL (the store then makes
 * them one at a time).
 */
export async function hitCountersInOneStatement(
  db: { execute(query: SQL): PromiseLike<unknown> },
  t: RateLimitTable,
  hits: readonly CounterHit[],
  nowMs: number,
): Promise<CounterState[] | null> {
  const result = await runCompoundStatement(db, () => {
    const { text, parameters } = mariadbCounterHitsStatement(getTableName(t), hits, nowMs, marker);
    return bound(text, parameters);
  });
  if (result === null) return null;
  const row = lastSelectedRow(result);
  if (row === undefined) throw new Error('rate limit hitMany answered no row');
  const states: CounterState[] = [];
  for (let index = 0; index < hits.length; index += 1) {
    const count = row[`c${index}`];
    const resetAt = row[`r${index}`];
    if (count === null || count === undefined || resetAt === null || resetAt === undefined) break;
    states.push({ count: Number(count), resetAtMs: Number(resetAt) });
  }
  return states;
}
