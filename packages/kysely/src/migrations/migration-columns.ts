import type { SqlDialect } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';

/** A table of the schema by its role; the real name comes from the store's options. */
export type TableRole = 'session' | 'rateLimit' | 'userLock' | 'activity' | 'securityEvent';

/** The columns one migration creates (with their table) or adds to a table. */
export interface TableColumns {
  readonly table: TableRole;
  readonly columns: readonly string[];
  /** Only where this holds (the user-lock table exists on MySQL/MariaDB only). */
  readonly when?: (dialect: SqlDialect) => boolean;
}

/**
 * Every migration -> the columns it creates or adds, in migration order. The
 * start-up check (`verify()`) derives the tables and columns it expects from this
 * map alone, and names the migration of whatever is missing.
 *
 * A NEW MIGRATION ADDS ITS ENTRY HERE, under the same name it has in `migrate.ts`,
 * listing only the columns it adds, e.g.
 *   '0003-add-session-name': [{ table: 'session', columns: ['name'] }],
 * (`test/migration-columns.test.ts` fails when this map and the migrated schema disagree.)
 */
export const MIGRATION_COLUMNS: Readonly<Record<string, readonly TableColumns[]>> = {
  '0001-create-session': [
    {
      table: 'session',
      columns: [
        'id',
        'user_id',
        'refresh_jti',
        'security_stamp',
        'created_at',
        'last_activity_at',
        'expires_at',
        'expired_at',
        'ip_address',
        'user_agent',
        'browser',
        'location',
      ],
    },
    { table: 'userLock', columns: ['user_id'], when: (dialect) => dialect.needsUserLockTable },
  ],
  '0002-create-rate-limit': [{ table: 'rateLimit', columns: ['counter_key', 'count', 'reset_at'] }],
  '0003-session-name': [{ table: 'session', columns: ['name'] }],
  '0004-session-authentication': [{ table: 'session', columns: ['auth_time', 'amr', 'acr'] }],
  '0005-session-dpop': [{ table: 'session', columns: ['dpop_jkt'] }],
  '0006-session-activity': [
    { table: 'activity', columns: ['id', 'session_id', 'user_id', 'kind', 'at', 'expires_at', 'ip_address', 'browser', 'location', 'detail'] },
  ],
  '0007-security-event-outbox': [
    {
      table: 'securityEvent',
      columns: ['id', 'batch_id', 'stream_id', 'token', 'user_id', 'session_id', 'state', 'attempts', 'next_attempt_at', 'created_at', 'last_error'],
    },
  ],
  '0008-session-device-bound': [{ table: 'session', columns: ['device_bound_key'] }],
  // PostgreSQL's login function: no table or column.
  '0009-login-function': [],
};

/** One expected column and the migration that brings it. */
export interface ExpectedColumn {
  readonly name: string;
  readonly migration: string;
}

/** One expected table: its real name, the migration that creates it, and all its columns in migration order. */
export interface ExpectedTable {
  readonly name: string;
  readonly createdBy: string;
  readonly columns: readonly ExpectedColumn[];
}

/** The tables of `roles` that this dialect has, as the migrations leave them. */
export function expectedTables(dialect: SqlDialect, names: TableNames, roles: readonly TableRole[]): ExpectedTable[] {
  const tables = new Map<TableRole, { createdBy: string; columns: ExpectedColumn[] }>();
  for (const [migration, entries] of Object.entries(MIGRATION_COLUMNS)) {
    for (const entry of entries) {
      if (!roles.includes(entry.table) || (entry.when !== undefined && !entry.when(dialect))) continue;
      let table = tables.get(entry.table);
      if (table === undefined) tables.set(entry.table, (table = { createdBy: migration, columns: [] }));
      for (const name of entry.columns) table.columns.push({ name, migration });
    }
  }
  return [...tables].map(([role, table]) => ({ name: names[role], ...table }));
}
