import * as core from '@sessauth/core';
import { StoreUnavailableError, type StoreSchemaError, type StoreSchemaProblem } from '@sessauth/core';
import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from './dialect/sql-dialect.js';
import { expectedTables, type ExpectedTable, type TableRole } from './migrations/migration-columns.js';
import { DEFAULT_RATE_LIMIT_TABLE, DEFAULT_SESSION_TABLE, type TableNames } from './schema.js';

/**
 * The start-up check of the stores: one `select <every expected column> from <table>
 * where 1 = 0` per table, which reads no row and costs a round trip. Only when it
 * fails are the table and then each column probed alone, to tell what is missing;
 * a failure that is not "no such table/column" (the server is down) is rethrown as
 * is, and the caller's guard turns it into a StoreUnavailableError.
 */
export async function verifySchema(db: Kysely<unknown>, dialect: SqlDialect, names: TableNames, roles: readonly TableRole[]): Promise<void> {
  const problems: StoreSchemaProblem[] = [];
  for (const table of expectedTables(dialect, names, roles)) {
    try {
      await probe(
        db,
        table.name,
        table.columns.map((column) => column.name),
      );
    } catch (error) {
      const found = await diagnose(db, table);
      if (found === null) throw error;
      problems.push(found);
    }
  }
  if (problems.length > 0) {
    problems.sort((a, b) => a.migration.localeCompare(b.migration));
    throw schemaError(problems, fixFor(names, roles));
  }
}

/**
 * `StoreSchemaError` came with `verify()` in the core; the peer range still admits an
 * older core, which has neither (and never calls `verify()`). Looked up on the module
 * namespace, so this file still loads there, and a host calling `verify()` by hand
 * gets a `StoreUnavailableError` naming the same tables, columns and migrations.
 */
function schemaError(problems: StoreSchemaProblem[], fix: string): Error {
  const SchemaError = (core as { StoreSchemaError?: typeof StoreSchemaError }).StoreSchemaError;
  if (SchemaError !== undefined) return new SchemaError(problems, fix);
  const what = problems.map((p) => `${p.table} ${p.missingColumns.join(', ') || '(table)'} (migration ${p.migration})`).join('; ');
  return new StoreUnavailableError(`store schema is not up to date: ${what}. Fix: ${fix}`, { operation: 'verify' });
}

async function probe(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const list = columns.length === 0 ? sql`1` : sql.join(columns.map((column) => sql.ref(column)));
  await sql`select ${list} from ${sql.table(table)} where 1 = 0`.execute(db);
}

/** What is missing from `table`, or null when nothing is (the probe failed for another reason). */
async function diagnose(db: Kysely<unknown>, table: ExpectedTable): Promise<StoreSchemaProblem | null> {
  try {
    await probe(db, table.name, []);
  } catch (error) {
    if (isMissing('table', error)) return { table: table.name, missingColumns: [], migration: table.createdBy };
    throw error;
  }
  const missing: (typeof table.columns)[number][] = [];
  for (const column of table.columns) {
    try {
      await probe(db, table.name, [column.name]);
    } catch (error) {
      if (!isMissing('column', error)) throw error;
      missing.push(column);
    }
  }
  if (missing.length === 0) return null;
  // The earliest migration that brings a missing column is the first one to run.
  const migration = missing.map((column) => column.migration).sort()[0] ?? table.createdBy;
  return { table: table.name, missingColumns: missing.map((column) => column.name), migration };
}

/**
 * The driver's "no such table" / "no such column": PostgreSQL 42P01 / 42703, MySQL
 * and MariaDB ER_NO_SUCH_TABLE / ER_BAD_FIELD_ERROR, SQLite SQLITE_ERROR with its
 * message (the only place SQLite says which).
 */
function isMissing(what: 'table' | 'column', error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (what === 'table' && (code === '42P01' || code === 'ER_NO_SUCH_TABLE')) return true;
  if (what === 'column' && (code === '42703' || code === 'ER_BAD_FIELD_ERROR')) return true;
  return code === 'SQLITE_ERROR' && typeof message === 'string' && message.startsWith(`no such ${what}:`);
}

/** The fix, with the table options the host must repeat when it renamed the tables. */
function fixFor(names: TableNames, roles: readonly TableRole[]): string {
  const flags: string[] = [];
  if (names.session !== DEFAULT_SESSION_TABLE && roles.includes('session')) flags.push(`--table ${names.session}`);
  if (names.rateLimit !== DEFAULT_RATE_LIMIT_TABLE && roles.includes('rateLimit')) flags.push(`--rate-limit-table ${names.rateLimit}`);
  const cli = ['npx sessauth-kysely migrate', ...flags].join(' ');
  return `run migrateToLatest()${flags.length === 0 ? '' : ' with the same table names'} or \`${cli}\``;
}
