import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';

/**
 * The DPoP key a session is bound to (JWT_DPOP, RFC 9449): `dpop_jkt`, the RFC 7638 SHA-256
 * thumbprint in base64url (43 characters; 64 leaves room). Nullable, so the migration is a
 * metadata-only change on a large table and every existing row reads as unbound. No index:
 * it is read with the row the guard already fetches.
 */
export function addSessionDpopMigration(_dialect: SqlDialect, names: TableNames): Migration {
  const t = names.session;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable(t).addColumn('dpop_jkt', 'varchar(64)').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable(t).dropColumn('dpop_jkt').execute();
    },
  };
}
