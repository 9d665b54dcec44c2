import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';

/**
 * When and how the user last proved who they are on a session (RFC 9470 step-up): `auth_time`
 * (BIGINT epoch milliseconds, like every timestamp here), `amr` (a JSON array of RFC 8176
 * method names, as text) and `acr` (at most 255 characters). All nullable, so the migration
 * is a metadata-only change on a large table: existing rows read `auth_time` as their
 * `created_at` and `amr` as []. No index: they are read with the row the guard already fetches.
 */
export function addSessionAuthenticationMigration(_dialect: SqlDialect, names: TableNames): Migration {
  const t = names.session;
  return {
    async up(db: Kysely<unknown>) {
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      await db.schema.alterTable(t).addColumn('auth_time', 'bigint').execute();
      await db.schema.alterTable(t).addColumn('amr', 'varchar(1024)').execute();
      await db.schema.alterTable(t).addColumn('acr', 'varchar(255)').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable(t).dropColumn('acr').execute();
      await db.schema.alterTable(t).dropColumn('amr').execute();
      await db.schema.alterTable(t).dropColumn('auth_time').execute();
    },
  };
}
