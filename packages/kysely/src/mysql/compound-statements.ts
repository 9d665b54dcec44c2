import { mariadbCounterHitsStatement, mariadbLoginStatement } from '@sessauth/core/store';
import { CompiledQuery } from 'kysely';
import type { CounterHit } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';
import type { SessionInsert } from '../session-row.js';

/**
 * Login's write on MariaDB as one round trip: the core's compound statement (`mariadbLoginStatement`
 * says how it stays atomic); MySQL answers a syntax error, and the store then keeps its transaction.
 */
export function oneTripCreateMariaDb(names: TableNames, row: SessionInsert, maxActiveSessions: number): CompiledQuery {
  const { text, parameters } = mariadbLoginStatement({ table: names.session, userLockTable: names.userLock }, row, maxActiveSessions);
  return CompiledQuery.raw(text, parameters);
}

/**
 * The refresh swap on MariaDB as one round trip: the conditional UPDATE, then, only when it
 * changed the row, its read-back, in one compound statement (no RETURNING on UPDATE there). No
 * result set means no swap.
 */
export function oneTripRotateMariaDb(update: CompiledQuery, read: CompiledQuery): CompiledQuery {
  return CompiledQuery.raw(
    `begin not atomic
  ${update.sql};
  if row_count() = 1 then
    ${read.sql};
  end if;
end`,
    [...update.parameters, ...read.parameters],
  );
}

/**
 * Several rate-limit hits on MariaDB as one round trip: the core's compound statement
 * (`mariadbCounterHitsStatement`); one row with `c<i>`, `r<i>` per counter.
 */
export function oneTripHitsMariaDb(table: string, hits: readonly CounterHit[], nowMs: number): CompiledQuery {
  const { text, parameters } = mariadbCounterHitsStatement(table, hits, nowMs);
  return CompiledQuery.raw(text, parameters);
}
