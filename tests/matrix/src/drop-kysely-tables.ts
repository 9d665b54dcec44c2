import { postgresLoginFunctionDdl } from '@sessauth/core/store';
import type { OpenedDatabase } from '@sessauth/kysely';
import { sql } from 'kysely';

/** Everything `migrateToLatest` made for one table name: its tables and, on PostgreSQL, the login function. */
export async function dropKyselyTables(opened: Pick<OpenedDatabase, 'db' | 'dialect'>, tableName: string, rateLimitTableName: string): Promise<void> {
  for (const table of [
    tableName,
    `${tableName}_activity`,
    `${tableName}_security_event`,
    `${tableName}_user_lock`,
    `${tableName}_migration`,
    `${tableName}_migration_lock`,
    rateLimitTableName,
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(opened.db);
  }
  if (opened.dialect === 'postgres') await sql.raw(postgresLoginFunctionDdl(tableName).drop).execute(opened.db);
}
