import { postgresLoginFunctionDdl } from '@sessauth/core/store';
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../src/dialect/sql-dialect.js';
import { tableNames } from '../../src/schema.js';

/**
 * Drops everything `migrateToLatest` makes under these names, from the store's own list of
 * them (`tableNames`): every table, and on PostgreSQL migration 0009's login function, which
 * outlives its table otherwise. Safe when some or all were never made.
 */
export async function dropMigrated(db: Kysely<unknown>, dialect: DialectName, tableName: string, rateLimitTableName: string): Promise<void> {
  const { loginFunction: _function, ...tables } = tableNames(tableName, rateLimitTableName);
  for (const table of Object.values(tables)) await sql`drop table if exists ${sql.table(table)}`.execute(db);
  if (dialect === 'postgres') await sql.raw(postgresLoginFunctionDdl(tableName).drop).execute(db);
}
