import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';

/**
 * The session table. Timestamps are BIGINT epoch milliseconds (UTC by
 * construction, identical on all three engines). Each index serves one hot query:
 * - primary key (id): findSession, rotateRefresh, touchSession, expireSession;
 * - (user_id, expired_at, created_at, id): a user's active sessions in order, the login cap,
 *   expireAllForUser;
 * - (expired_at) and (expires_at): purgeExpired, one pass per condition;
 * - (created_at, id): the admin listing, newest first with a keyset cursor.
 */
export function createSessionMigration(dialect: SqlDialect, names: TableNames): Migration {
  const t = names.session;
  return {
    async up(db: Kysely<unknown>) {
      const options = await dialect.tableOptions(db);
      let table = db.schema
        .createTable(t)
        .addColumn('id', 'varchar(128)', (col) => dialect.idColumn(col).notNull().primaryKey())
        .addColumn('user_id', 'varchar(255)', (col) => col.notNull())
        .addColumn('refresh_jti', 'varchar(128)', (col) => col.notNull())
        .addColumn('security_stamp', 'varchar(255)', (col) => col.notNull())
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .addColumn('last_activity_at', 'bigint', (col) => col.notNull())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .addColumn('expired_at', 'bigint')
        .addColumn('ip_address', 'varchar(45)')
        .addColumn('user_agent', 'varchar(512)')
        .addColumn('browser', 'varchar(255)')
        .addColumn('location', 'text');
      if (options !== null) table = table.modifyEnd(options);
      await table.execute();

      await db.schema.createIndex(`${t}_user_active_idx`).on(t).columns(['user_id', 'expired_at', 'created_at', 'id']).execute();
      await db.schema.createIndex(`${t}_expired_at_idx`).on(t).column('expired_at').execute();
      await db.schema.createIndex(`${t}_expires_at_idx`).on(t).column('expires_at').execute();
      await db.schema.createIndex(`${t}_created_id_idx`).on(t).columns(['created_at', 'id']).execute();

      if (dialect.needsUserLockTable) {
        let lock = db.schema.createTable(names.userLock).addColumn('user_id', 'varchar(255)', (col) => col.notNull().primaryKey());
        if (options !== null) lock = lock.modifyEnd(options);
        await lock.execute();
      }
    },
    async down(db: Kysely<unknown>) {
      if (dialect.needsUserLockTable) await db.schema.dropTable(names.userLock).ifExists().execute();
      await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
