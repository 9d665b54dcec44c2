import type { CompiledQuery, Kysely } from 'kysely';

/**
 * Databases whose server refused a one-trip form as not there: a compound statement as a syntax
 * error (MySQL), the login function as undefined (PostgreSQL before migration 0009). They keep
 * their statements until the process restarts.
 */
const noOneTripForm = new WeakSet<object>();

/** MySQL's ER_PARSE_ERROR: the statement was not run at all, so the statements may follow. */
const PARSE_ERROR = 1064;
/** PostgreSQL's undefined_function: refused while planning, nothing ran. */
const UNDEFINED_FUNCTION = '42883';

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
    const { errno, code } = error as { errno?: unknown; code?: unknown };
    if (errno !== PARSE_ERROR && code !== UNDEFINED_FUNCTION) throw error;
    noOneTripForm.add(db);
    return null;
  }
}
