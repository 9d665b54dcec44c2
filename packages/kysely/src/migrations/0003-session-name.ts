import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';

/**
 * The device name a user gives a session (`PATCH /auth/sessions/{id}/`): nullable, at most 64
 * characters (the core checks the length in code points, as PostgreSQL and MySQL count them;
 * SQLite does not enforce it). Existing rows read as unnamed. No index: it is only displayed.
 */
export function addSessionNameMigration(_dialect: SqlDialect, names: TableNames): Migration {
  const t = names.session;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable(t).addColumn('name', 'varchar(64)').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable(t).dropColumn('name').execute();
    },
  };
}
