import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';

/**
 * The browser key a session is bound to (JWT_DEVICE_BOUND_COOKIES, W3C DBSC): `device_bound_key`,
 * the public JWK as JSON text. The whole key, not its thumbprint: a DBSC refresh proof carries no
 * key, so the server verifies it with the one it stored. `text`: an RSA key's JWK runs to several
 * hundred characters. Nullable, so the migration is metadata-only and every row reads as unbound.
 */
export function addSessionDeviceBoundMigration(_dialect: SqlDialect, names: TableNames): Migration {
  const t = names.session;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable(t).addColumn('device_bound_key', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable(t).dropColumn('device_bound_key').execute();
    },
  };
}
