import { StoreSchemaError, type StoreSchemaProblem } from '@sessauth/core';
import { type Column, getTableColumns, getTableName, sql, type Table } from 'drizzle-orm';
import { stepOf, type TableRole } from '../schema/schema-steps.js';
import { isMissing } from './driver-errors.js';
import type { QueryDb } from './engine.js';

export const SCHEMA_FIX =
  "add the sessauth tables to your drizzle schema (`export * from '@sessauth/drizzle/<pg|mysql|sqlite>'`, or the tables of sessauth*Tables()) and apply them: drizzle-kit generate, then migrate (or drizzle-kit push)";

/**
 * The start-up check: one `select <every column> from <table> where 1 = 0` per table, which
 * reads no row. Only when it fails is the table, then each column, probed alone to tell what
 * is missing; a failure that is not "no such table/column" (the server is down) is rethrown,
 * and the caller's guard makes it a StoreUnavailableError.
 */
export async function verifySchema(db: QueryDb, tables: ReadonlyArray<readonly [TableRole, Table]>): Promise<void> {
  const problems: StoreSchemaProblem[] = [];
  for (const [role, table] of tables) {
    const columns = Object.values(getTableColumns(table)) as Column[];
    try {
      await probe(db, table, columns);
    } catch (error) {
      const found = await diagnose(db, role, table, columns);
      if (found === null) throw error;
      problems.push(found);
    }
  }
  if (problems.length > 0)
    throw new StoreSchemaError(
      problems.sort((a, b) => a.migration.localeCompare(b.migration)),
      SCHEMA_FIX,
    );
}

async function probe(db: QueryDb, table: Table, columns: readonly Column[]): Promise<void> {
  const fields = columns.length === 0 ? { one: sql`1` } : Object.fromEntries(columns.map((column, i) => [`c${i}`, column]));
  await db.select(fields).from(table).where(sql`1 = 0`);
}

/** What is missing from `table`, or null when nothing is (the probe failed for another reason). */
async function diagnose(db: QueryDb, role: TableRole, table: Table, columns: readonly Column[]): Promise<StoreSchemaProblem | null> {
  const name = getTableName(table);
  try {
    await probe(db, table, []);
  } catch (error) {
    if (isMissing('table', error)) return { table: name, missingColumns: [], migration: stepOf(role, '') };
    throw error;
  }
  const missing: string[] = [];
  for (const column of columns) {
    try {
      await probe(db, table, [column]);
    } catch (error) {
      if (!isMissing('column', error)) throw error;
      missing.push(column.name);
    }
  }
  if (missing.length === 0) return null;
  // The earliest step that brings a missing column is the first one to apply.
  const migration = missing.map((column) => stepOf(role, column)).sort()[0]!;
  return { table: name, missingColumns: missing, migration };
}
