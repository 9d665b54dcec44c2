// @sessauth/core/store: what a store author needs to implement the storage port and prove it
// with @sessauth/conformance. Only types and pure functions live here: error classes come from
// `@sessauth/core` itself, so `instanceof` holds in every module system.

export type {
  SessionStore,
  SessionRecord,
  NewSession,
  CreateSessionInput,
  ExpireAllOptions,
  StepUpInput,
  BindDeviceKeyInput,
  RotateRefreshInput,
  RotateOutcome,
  AdminSessionQuery,
  AdminSessionPage,
  RateLimitStore,
  RateLimitHit,
} from './store/store-port.js';
export type { ActivityEntry, ActivityKind, ActivityQuery, AppendActivityInput } from './store/activity-port.js';
export { type ActivityTableRow, activityEntryFromRow, addToHistories } from './store/activity-rows.js';
export { type SecurityEventTableRow, securityEventFromRow } from './store/security-event-rows.js';
export type {
  SecurityEventOutbox,
  SecurityEventRecord,
  SecurityEventState,
  NewSecurityEvent,
  SecurityEventOutcome,
} from './store/security-event-outbox.js';
export { encodeAdminCursor, decodeAdminCursor } from './store/admin-cursor.js';
export { isActive } from './sessions/session-state.js';
export { settleWithin } from './time/settle-within.js';
export { retryTransientConflicts } from './store/retry-transient-conflicts.js';
export {
  type MariaDbSessionTables,
  type MariaDbSessionColumns,
  type MariaDbCounterHit,
  MYSQL_PARSE_ERROR,
  mariadbLoginStatement,
  mariadbCounterHitsStatement,
} from './store/mariadb-compound-statements.js';
export { MYSQL_PACKED_WINDOW_LIMIT_MS, mysqlCounterHitStatement, mysqlCounterFromInsertId } from './store/mysql-counter-statement.js';
export { hitInOrder } from './rate-limit/hit-in-order.js';
export { findSessionsInBatches } from './store/find-sessions-in-batches.js';
export { parseStoredAmr, parseStoredLocation } from './store/stored-columns.js';
export { type SessionModelRow, toSessionModelRow, sessionRecordFromModelRow, isActiveModelRow } from './store/session-model-row.js';
export {
  type PostgresSessionTable,
  type PostgresSessionColumns,
  type PostgresLoginStatementOptions,
  POSTGRES_NEEDS_READ_COMMITTED,
  POSTGRES_OTHER_TABLE,
  POSTGRES_UNDEFINED_FUNCTION,
  POSTGRES_FUNCTION_LOOKUP,
  postgresLoginFunctionName,
  postgresLoginFunctionSignature,
  postgresLoginFunctionDdl,
  postgresLoginLockKey,
  postgresLoginStatement,
} from './store/postgres-login-function.js';
