import {
  POSTGRES_FUNCTION_LOOKUP,
  POSTGRES_NEEDS_READ_COMMITTED,
  POSTGRES_OTHER_TABLE,
  POSTGRES_UNDEFINED_FUNCTION,
  type PostgresSessionColumns,
  postgresLoginStatement,
} from '@sessauth/core/store';
import { type Column, getTableName, type SQL } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { bound, marker } from '../store/bound-statement.js';
import { driverError } from '../store/driver-errors.js';
import type { SessionRow } from '../store/session-row.js';
import type { SessionTable } from '../store/tables.js';

/**
 * Databases whose server refused the one-statement login: the login function (`sessauthPgLoginFunction`,
 * a custom migration of the host's) is not there, the connections default to an isolation level other
 * than READ COMMITTED, or the function found keeps another table's cap. Nothing ran; they keep the
 * transaction for the database object's life.
 */
const noLoginStatement = new WeakSet<object>();

/**
 * Login's write in one statement: the core's `postgresLoginStatement` (the function takes the
 * user's lock and revokes beyond the cap, then the row is inserted), on the table's own schema and
 * column names, waiting for the lock at most `lockWaitMs`. Resolves to the row as stored, or null
 * when this database has no such function.
 */
export async function insertInOneStatement(
  db: { execute(query: SQL): PromiseLike<unknown> },
  t: SessionTable,
  row: SessionRow,
  cap: number,
  lockWaitMs: number,
): Promise<SessionRow | null> {
  if (noLoginStatement.has(db)) return null;
  const columns = t as unknown as Record<string, Column>;
  const byName = Object.fromEntries(
    Object.entries(row).map(([key, value]) => [columns[key]?.name ?? key, value]),
  ) as unknown as PostgresSessionColumns;
  const where = { table: getTableName(t), schema: getTableConfig(t as never).schema };
  const { text, parameters } = postgresLoginStatement(where, byName, cap, { lockWaitMs, placeholder: marker });
  let result: unknown;
  try {
    result = await db.execute(bound(text, parameters));
  } catch (error) {
    if (!refusedWhole(error)) throw error;
    noLoginStatement.add(db);
    return null;
  }
  // node-postgres and PGlite answer `{ rows }`, postgres.js the rows themselves.
  const rows = Array.isArray(result) ? result : (result as { rows?: unknown }).rows;
  const answer = Array.isArray(rows) ? (rows[0] as { expired_at?: unknown } | undefined) : undefined;
  if (answer === undefined || !('expired_at' in answer)) throw new Error('the login statement answered no expired_at');
  return answer.expired_at === null ? row : { ...row, expiredAt: Number(answer.expired_at) };
}

/** The function is missing (not an undefined function raised inside it), or it refused an isolation level or a table: nothing ran. */
function refusedWhole(error: unknown): boolean {
  const { code, routine } = driverError(error) ?? {};
  if (code === POSTGRES_NEEDS_READ_COMMITTED || code === POSTGRES_OTHER_TABLE) return true;
  return code === POSTGRES_UNDEFINED_FUNCTION && (routine === POSTGRES_FUNCTION_LOOKUP || routine === undefined);
}
