import {
  POSTGRES_NEEDS_READ_COMMITTED,
  POSTGRES_UNDEFINED_FUNCTION,
  type PostgresSessionColumns,
  postgresLoginStatement,
} from '@sessauth/core/store';
import { type Column, getTableName, type SQL, sql } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { driverCode } from '../store/driver-errors.js';
import type { SessionRow } from '../store/session-row.js';
import type { SessionTable } from '../store/tables.js';
import type { AnyPgDatabase } from './pg-engine.js';

/**
 * Databases whose server refused the one-statement login: the login function (`sessauthPgLoginFunction`,
 * a custom migration of the host's) is not there, or the connections default to an isolation level
 * other than READ COMMITTED. Nothing ran; they keep the transaction for the database object's life.
 */
const noLoginStatement = new WeakSet<object>();

/**
 * Login's write in one statement: the core's `postgresLoginStatement` (the function takes the
 * user's lock and revokes beyond the cap, then the row is inserted), on the table's own schema and
 * column names. Resolves to the row as stored, or null when this database has no such function.
 */
export async function insertInOneStatement(db: AnyPgDatabase, t: SessionTable, row: SessionRow, cap: number): Promise<SessionRow | null> {
  if (noLoginStatement.has(db)) return null;
  const columns = t as unknown as Record<string, Column>;
  const byName = Object.fromEntries(
    Object.entries(row).map(([key, value]) => [columns[key]?.name ?? key, value]),
  ) as unknown as PostgresSessionColumns;
  const { text, parameters } = postgresLoginStatement({ table: getTableName(t), schema: getTableConfig(t as never).schema }, byName, cap);
  try {
    const result = (await db.execute(bound(text, parameters))) as unknown as { rows?: unknown[] } | unknown[];
    const [answer] = (Array.isArray(result) ? result : (result.rows ?? [])) as Array<{ expired_at?: unknown }>;
    const expiredAt = answer?.expired_at;
    return expiredAt === null || expiredAt === undefined ? row : { ...row, expiredAt: Number(expiredAt) };
  } catch (error) {
    const code = driverCode(error);
    if (code !== POSTGRES_UNDEFINED_FUNCTION && code !== POSTGRES_NEEDS_READ_COMMITTED) throw error;
    noLoginStatement.add(db);
    return null;
  }
}

/** `$n` placeholders as drizzle's own parameters, so every PostgreSQL driver binds them its way. */
function bound(text: string, parameters: readonly unknown[]): SQL {
  const pieces = text.split(/\$(\d+)/);
  return sql.join(pieces.map((piece, index) => (index % 2 === 0 ? sql.raw(piece) : sql`${parameters[Number(piece) - 1]}`)));
}
