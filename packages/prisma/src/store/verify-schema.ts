import { StoreSchemaError, type StoreSchemaProblem } from '@sessauth/core';
import type { SessauthPrismaTransaction } from '../client/prisma-like.js';
import { type ExpectedColumn, expectedColumns, type TableRole } from '../schema/expected-schema.js';
import { isMissing } from './prisma-errors.js';

export const SCHEMA_FIX =
  "add the models of @sessauth/prisma's prisma/<provider>/sessauth.prisma to your schema and its migrations to yours (prisma migrate dev --create-only, then paste), run prisma migrate deploy and prisma generate";

/** When the models answer but the raw statements find no table: the models map to other tables. */
export function mappedElsewhere(problems: readonly StoreSchemaProblem[], table: string): StoreSchemaError {
  const fix = `the models answer, so their @@map names another table than "${table}": give the stores that name (tableName), and on PostgreSQL the schema it is in (schema)`;
  return new StoreSchemaError(problems, fix);
}

/** One table to check: its role, its name in a raw statement (quoted, maybe qualified), its plain name. */
export type TableCheck = readonly [role: TableRole, raw: string, name: string];

/**
 * The start-up check: one `select <every column> from <table> where 1 = 0` per table, which
 * reads no row. Only when it fails is the table, then each column, probed alone to tell what is
 * missing; a failure that is not "no such table/column" (the server is down) is rethrown, and the
 * caller's guard makes it a StoreUnavailableError.
 */
export async function verifySchema(client: SessauthPrismaTransaction, quote: (name: string) => string, tables: readonly TableCheck[]): Promise<void> {
  const problems: StoreSchemaProblem[] = [];
  for (const [role, raw, name] of tables) {
    const { createdBy, columns } = expectedColumns(role);
    const probe = (only: readonly ExpectedColumn[]) =>
      client.$queryRawUnsafe(`select ${only.length === 0 ? '1' : only.map((column) => quote(column.name)).join(', ')} from ${raw} where 1 = 0`);
    try {
      await probe(columns);
    } catch (error) {
      const found = await diagnose(probe, name, createdBy, columns);
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

/** What is missing from the table, or null when nothing is (the probe failed for another reason). */
async function diagnose(
  probe: (only: readonly ExpectedColumn[]) => PromiseLike<unknown>,
  table: string,
  createdBy: string,
  columns: readonly ExpectedColumn[],
): Promise<StoreSchemaProblem | null> {
  try {
    await probe([]);
  } catch (error) {
    if (isMissing('table', error)) return { table, missingColumns: [], migration: createdBy };
    throw error;
  }
  const missing: ExpectedColumn[] = [];
  for (const column of columns) {
    try {
      await probe([column]);
    } catch (error) {
      if (!isMissing('column', error)) throw error;
      missing.push(column);
    }
  }
  if (missing.length === 0) return null;
  // The earliest step that brings a missing column is the first one to apply.
  const migration = missing.map((column) => column.step).sort()[0]!;
  return { table, missingColumns: missing.map((column) => column.name), migration };
}
