import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import { indexName, type TableNames } from '../schema.js';

/**
 * The Shared Signals transmitter's outbox (`<tableName>_security_event`): one row per signed
 * SET and stream until a receiver accepts it (docs/shared-signals.md). Timestamps are BIGINT
 * epoch milliseconds like every other here. Indexes:
 * - (next_attempt_at): the dispatcher's claim of what is due;
 * - (batch_id): the release of one change's rows.
 * A new table, so the migration costs nothing on the session table; it stays empty unless
 * JWT_SSF_TRANSMITTER is on.
 */
export function createSecurityEventOutboxMigration(dialect: SqlDialect, names: TableNames): Migration {
  const t = names.securityEvent;
  return {
    async up(db: Kysely<unknown>) {
      const options = await dialect.tableOptions(db);
      let table = db.schema
        .createTable(t)
        .addColumn('id', 'varchar(64)', (col) => dialect.idColumn(col).notNull().primaryKey())
        .addColumn('batch_id', 'varchar(64)', (col) => dialect.idColumn(col).notNull())
        .addColumn('stream_id', 'varchar(64)', (col) => col.notNull())
        .addColumn('token', 'text', (col) => col.notNull())
        .addColumn('user_id', 'varchar(255)')
        .addColumn('session_id', 'varchar(128)')
        .addColumn('state', 'varchar(8)', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull())
        .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .addColumn('last_error', 'varchar(255)');
      if (options !== null) table = table.modifyEnd(options);
      await table.execute();
      await db.schema.createIndex(indexName(t, 'due_idx')).on(t).column('next_attempt_at').execute();
      await db.schema.createIndex(indexName(t, 'batch_idx')).on(t).column('batch_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
