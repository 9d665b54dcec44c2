import { MYSQL_PARSE_ERROR } from '@sessauth/core/store';
import { getTableColumns, type SQL, type Table } from 'drizzle-orm';
import type { SessionRow } from '../store/session-row.js';

/** Databases that refused a compound statement (MySQL: a syntax error, nothing ran); they keep their transactions. */
const refused = new WeakSet<object>();

/**
 * Runs a MariaDB compound statement (`BEGIN NOT ATOMIC ... END`) and answers its result, or null on
 * MySQL, which has none outside a stored program: remembered, so later calls go straight to the
 * statements. drizzle's mysql2 driver sends it over the text protocol, where MariaDB takes it.
 */
export async function runCompoundStatement(db: { execute(query: SQL): PromiseLike<unknown> }, statement: () => SQL): Promise<unknown | null> {
  if (refused.has(db)) return null;
  try {
    return await db.execute(statement());
  } catch (error) {
    if (!isParseError(error)) throw error;
    refused.add(db);
    return null;
  }
}

/**
 * The first row of the result set a compound statement ends with, or undefined when it ended with
 * none: mysql2 answers `[results, fields]`, and a compound statement's results as `[rows, header]`.
 */
export function lastSelectedRow(result: unknown): Record<string, unknown> | undefined {
  let level: unknown = Array.isArray(result) ? result[0] : result;
  // `[rows, header]` (a result set, then the block's own OK) or the header alone (no result set).
  if (Array.isArray(level) && Array.isArray(level[0])) level = level[0];
  if (!Array.isArray(level)) return undefined;
  const first: unknown = level[0];
  return typeof first === 'object' && first !== null && !Array.isArray(first) ? (first as Record<string, unknown>) : undefined;
}

/** MySQL's ER_PARSE_ERROR, through drizzle's error wrapping. */
function isParseError(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth += 1) {
    if ((current as { errno?: unknown }).errno === MYSQL_PARSE_ERROR) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A row a compound statement selected (database column names, driver values) as drizzle's select would give it. */
export function fromStoredRow(table: Table, stored: Record<string, unknown>): SessionRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = stored[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as unknown as SessionRow;
}
