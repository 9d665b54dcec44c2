import type { CompiledQuery, Kysely } from 'kysely';
import { POSTGRES_NEEDS_READ_COMMITTED, POSTGRES_UNDEFINED_FUNCTION } from '@sessauth/core/store';

/**
 * Databases (Kysely instances) whose server refused a one-trip form: a compound statement as a
 * syntax error (MySQL), the login function as undefined (PostgreSQL before migration 0009) or
 * under an isolation level other than READ COMMITTED. They keep their statements for the life of
 * the instance.
 */
const noOneTripForm = new WeakSet<object>();

/** MySQL's ER_PARSE_ERROR: the statement was not run at all, so the statements may follow. */
const PARSE_ERROR = 1064;
/** Where PostgreSQL raises undefined_function for a call naming a function that is not there: nothing ran. */
const FUNCTION_LOOKUP = 'ParseFuncOrColumn';

/**
 * Runs a one-round-trip form of a store step; null when this server has no such statement
 * (nothing ran; remembered, so later calls go straight to the statements). The rows are those
 * of its last result set: MariaDB hands a compound statement's result set as the first item.
 */
export async function runInOneTrip<DB>(db: Kysely<DB>, query: CompiledQuery | undefined): Promise<unknown[] | null> {
  if (query === undefined || noOneTripForm.has(db)) return null;
  try {
    const { rows } = await db.executeQuery(query);
    return Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
  } catch (error) {
    if (!isAbsent(error)) throw error;
    noOneTripForm.add(db);
    return null;
  }
}

/**
 * MySQL's syntax error; PostgreSQL's missing function (not a missing operator inside one), or the
 * login function's refusal of an isolation level other than READ COMMITTED. Each rolled back
 * everything, the lock included.
 */
function isAbsent(error: unknown): boolean {
  const { errno, code, routine } = error as { errno?: unknown; code?: unknown; routine?: unknown };
  return errno === PARSE_ERROR || (code === POSTGRES_UNDEFINED_FUNCTION && routine === FUNCTION_LOOKUP) || code === POSTGRES_NEEDS_READ_COMMITTED;
}
