import type { CompiledQuery, Kysely } from 'kysely';
import {
  MYSQL_PARSE_ERROR,
  POSTGRES_FUNCTION_LOOKUP,
  POSTGRES_NEEDS_READ_COMMITTED,
  POSTGRES_OTHER_TABLE,
  POSTGRES_UNDEFINED_FUNCTION,
} from '@sessauth/core/store';

/**
 * Databases (Kysely instances) whose server refused a one-trip form: a compound statement as a
 * syntax error (MySQL), the login function as undefined (PostgreSQL before migration 0009), under
 * an isolation level other than READ COMMITTED, or as keeping another table's cap. They keep their
 * statements for the life of the instance.
 */
const noOneTripForm = new WeakSet<object>();

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
 * login function's refusal of an isolation level other than READ COMMITTED or of a table other
 * than its own. Each rolled back everything, the lock included.
 */
function isAbsent(error: unknown): boolean {
  const { errno, code, routine } = error as { errno?: unknown; code?: unknown; routine?: unknown };
  return (
    errno === MYSQL_PARSE_ERROR ||
    (code === POSTGRES_UNDEFINED_FUNCTION && routine === POSTGRES_FUNCTION_LOOKUP) ||
    code === POSTGRES_NEEDS_READ_COMMITTED ||
    code === POSTGRES_OTHER_TABLE
  );
}
