// The public API of @sessauth/kysely. Everything not listed here is internal.

export { KyselySessionStore, createKyselyStore, type KyselyStoreOptions } from './kysely-store.js';
export { KyselyRateLimitStore, type KyselyRateLimitStoreOptions } from './rate-limit-store.js';
export { migrateToLatest, type MigrateOptions, type MigrateSummary } from './migrate.js';
export { openKyselyFromUrl, type OpenFromUrlOptions, type OpenedDatabase } from './open-from-url.js';
export { withNamedStatements } from './dialects/postgres-named-statements.js';
export {
  guardPostgresPool,
  type PgClientLike,
  type PgPoolLike,
  type PoolGuardOptions,
} from './pools/postgres-pool-guard.js';
export { guardMysqlPool, type MysqlConnectionLike, type MysqlPoolLike } from './pools/mysql-pool-guard.js';
export { QueryDeadlineError } from './pools/query-deadline.js';
export { withStatementCache, type SqliteDirectReads } from './dialects/sqlite-statement-cache.js';
export type { DirectReads } from './dialects/direct-reads.js';
export { mysqlDirectReads, type MysqlExecutePool } from './dialects/mysql-direct-reads.js';
export type { DialectName } from './dialects/sql-dialect.js';
export {
  DEFAULT_SESSION_TABLE,
  DEFAULT_RATE_LIMIT_TABLE,
  type SessauthKyselyDatabase,
  type SessauthSessionTable,
  type SessauthRateLimitTable,
  type EpochMillisColumn,
} from './schema.js';
