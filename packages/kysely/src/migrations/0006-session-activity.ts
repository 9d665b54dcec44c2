import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';

/**
 * The activity history (JWT_SESSION_ACTIVITY): a table of its own, so the session row and the
 * guard's read stay as they are. Entries outlive their session row until their own
 * `expires_at` (a revocation is worth keeping). Each index serves one query:
 * - primary key (id): the core mints unique, time-ordered ids;
 * - (session_id, id): a session's history in order, and the per-session bound;
 * - (expires_at): the purge.
 * `detail` holds up to 8 methods of 32 characters joined by commas (263), a reason, a signal
 * or a device name (64): 512 leaves room.
 */
export function createSessionActivityMigration(dialect: SqlDialect, names: TableNames): Migration {
  const t = names.activity;
  return {
    async up(db: Kysely<unknown>) {
      const options = await dialect.tableOptions(db);
      let table = db.schema
        .createTable(t)
        .addColumn('id', 'varchar(64)', (col) => dialect.idColumn(col).notNull().primaryKey())
        .addColumn('session_id', 'varchar(128)', (col) => col.notNull())
        .addColumn('user_id', 'varchar(255)', (col) => col.notNull())
        .addColumn('kind', 'varchar(32)', (col) => col.notNull())
        .addColumn('at', 'bigint', (col) => col.notNull())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .addColumn('ip_address', 'varchar(45)')
        .addColumn('browser', 'varchar(255)')
        .addColumn('location', 'text')
        .addColumn('detail', 'varchar(512)');
      if (options !== null) table = table.modifyEnd(options);
      await table.execute();
      await db.schema.createIndex(`${t}_sid_idx`).on(t).columns(['session_id', 'id']).execute();
      await db.schema.createIndex(`${t}_exp_idx`).on(t).column('expires_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
