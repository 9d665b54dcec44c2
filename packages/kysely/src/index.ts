// The public API of @sessauth/kysely. Everything not listed here is internal.

export { KyselySessionStore, createKyselyStore, type KyselyStoreOptions } from './kysely-store.js';
export { KyselyRateLimitStore, type KyselyRateLimitStoreOptions } from './rate-limit-store.js';
export { migrateToLatest, type MigrateOptions, type MigrateSummary } from './migrate.js';
export { openKyselyFromUrl, type OpenFromUrlOptions, type OpenedDatabase } from './open-from-url.js';
export { withNamedStatements } from './postgres/postgres-named-statements.js';
export { guardPostgresPool, type PgClientLike, type PgPoolLike } from './postgres/postgres-pool-guard.js';
export { guardMysqlPool, type MysqlConnectionLike, type MysqlExecutePool, type MysqlPoolLike } from './mysql/mysql-pool-guard.js';
export { QueryDeadlineError, type PoolGuardOptions } from './dialect/query-deadline.js';
export { withStatementCache, type SqliteDirectReads } from './sqlite/sqlite-statement-cache.js';
export type { DirectReads } from './dialect/direct-reads.js';
export { mysqlDirectReads } from './mysql/mysql-direct-reads.js';
export type { DialectName } from './dialect/sql-dialect.js';
export {
  DEFAULT_SESSION_TABLE,
  DEFAULT_RATE_LIMIT_TABLE,
  type SessauthKyselyDatabase,
  type SessauthSessionTable,
  type SessauthRateLimitTable,
  type EpochMillisColumn,
} from './schema.js';
