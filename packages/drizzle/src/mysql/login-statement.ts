import { type MariaDbSessionColumns, mariadbLoginStatement } from '@sessauth/core/store';
import { type Column, getTableName, type SQL, type Table } from 'drizzle-orm';
import { bound, marker } from '../store/bound-statement.js';
import type { SessionRow } from '../store/session-row.js';
import type { SessionTable } from '../store/tables.js';
import { lastSelectedRow, runCompoundStatement } from './compound-statement.js';

/**
 * Login's write on MariaDB in one round trip: the core's compound statement (`mariadbLoginStatement`
 * says how it stays atomic), on the table's own column names. Resolves to the row as stored, or null
 * on MySQL (the store then takes its transaction).
 */
export async function insertInOneCompoundStatement(
  db: { execute(query: SQL): PromiseLike<unknown> },
  tables: { readonly session: SessionTable; readonly userLock: Table },
  row: SessionRow,
  cap: number,
): Promise<SessionRow | null> {
  const columns = tables.session as unknown as Record<string, Column>;
  const byName = Object.fromEntries(
    Object.entries(row).map(([key, value]) => [columns[key]?.name ?? key, value]),
  ) as unknown as MariaDbSessionColumns;
  const where = { table: getTableName(tables.session), userLockTable: getTableName(tables.userLock) };
  const result = await runCompoundStatement(db, () => {
    const { text, parameters } = mariadbLoginStatement(where, byName, cap, marker);
    return bound(text, parameters);
  });
  if (result === null) return null;
  const answer = lastSelectedRow(result);
  if (answer === undefined || !('expired_at' in answer)) throw new Error('the login statement answered no expired_at');
  return answer.expired_at === null ? row : { ...row, expiredAt: Number(answer.expired_at) };
}
