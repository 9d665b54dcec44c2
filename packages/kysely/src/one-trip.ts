import type { CompiledQuery, Kysely } from 'kysely';

/** Databases whose server refused a compound statement as a syntax error (MySQL): they keep their statements. */
const noCompoundStatement = new WeakSet<object>();

/** MySQL's ER_PARSE_ERROR: the statement was not run at all, so the statements may follow. */
const PARSE_ERROR = 1064;

/**
 * Runs a one-round-trip form of a store step; null when this server has no such statement
 * (nothing ran; remembered, so later calls go straight to the statements). The rows are those
 * of its last result set: MariaDB hands a compound statement's result set as the first item.
 */
export async function runInOneTrip<DB>(db: Kysely<DB>, query: CompiledQuery | undefined): Promise<unknown[] | null> {
  if (query === undefined || noCompoundStatement.has(db)) return null;
  try {
    const { rows } = await db.executeQuery(query);
    return Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
  } catch (error) {
    if ((error as { errno?: unknown }).errno !== PARSE_ERROR) throw error;
    noCompoundStatement.add(db);
    return null;
  }
}
