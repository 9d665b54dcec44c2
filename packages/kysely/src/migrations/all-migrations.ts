import type { Migration } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';
import { createSessionMigration } from './0001-create-session.js';
import { createRateLimitMigration } from './0002-create-rate-limit.js';
import { addSessionNameMigration } from './0003-session-name.js';
import { addSessionAuthenticationMigration } from './0004-session-authentication.js';
import { addSessionDpopMigration } from './0005-session-dpop.js';
import { createSessionActivityMigration } from './0006-session-activity.js';
import { createSecurityEventOutboxMigration } from './0007-security-event-outbox.js';
import { addSessionDeviceBoundMigration } from './0008-session-device-bound.js';
import { createLoginFunctionMigration } from './0009-login-function.js';

/** Every migration, by the name Kysely's Migrator records, in order: what `migrateToLatest` runs and `migrationDdl` prints. */
export function sessauthMigrations(dialect: SqlDialect, names: TableNames): Record<string, Migration> {
  return {
    '0001-create-session': createSessionMigration(dialect, names),
    '0002-create-rate-limit': createRateLimitMigration(dialect, names),
    '0003-session-name': addSessionNameMigration(dialect, names),
    '0004-session-authentication': addSessionAuthenticationMigration(dialect, names),
    '0005-session-dpop': addSessionDpopMigration(dialect, names),
    '0006-session-activity': createSessionActivityMigration(dialect, names),
    '0007-security-event-outbox': createSecurityEventOutboxMigration(dialect, names),
    '0008-session-device-bound': addSessionDeviceBoundMigration(dialect, names),
    '0009-login-function': createLoginFunctionMigration(dialect, names),
  };
}
