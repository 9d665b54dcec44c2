import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';

/** Fixed-window counters of the rate limiter, one row per (hashed) key. */
export function createRateLimitMigration(dialect: SqlDialect, names: TableNames): Migration {
  const t = names.rateLimit;
  return {
    async up(db: Kysely<unknown>) {
      const options = await dialect.tableOptions(db);
      let table = db.schema
        .createTable(t)
        .addColumn('counter_key', 'varchar(64)', (col) => col.notNull().primaryKey())
        .addColumn('count', 'integer', (col) => col.notNull())
        .addColumn('reset_at', 'bigint', (col) => col.notNull());
      if (options !== null) table = table.modifyEnd(options);
      await table.execute();
      // Purging ended windows finds them without a full scan.
      await db.schema.createIndex(`${t}_reset_at_idx`).on(t).column('reset_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
