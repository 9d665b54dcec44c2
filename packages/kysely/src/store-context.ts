import type { Kysely, QueryResult } from 'kysely';
import { resolveDialect } from './dialect/resolve-dialect.js';
import type { DialectName, SqlDialect } from './dialect/sql-dialect.js';
import type { DirectReads } from './dialect/direct-reads.js';
import { tableNames, type SessionDb, type TableNames } from './schema.js';
import { prepareSessionQueries, type SessionQueries } from './session-queries.js';
import { operationTimeout, type GuardPolicy } from './store-guard.js';

export interface KyselyStoreOptions {
  /** Detected from the Kysely instance's adapter when omitted. */
  dialect?: DialectName;
  /** The session table, as given to `migrateToLatest`. @default 'sessauth_session' */
  tableName?: string;
  /** Rows per DELETE statement in `purgeExpired`. @default 1000 */
  purgeBatchSize?: number;
  /**
   * The `withStatementCache` database (SQLite) or `withNamedStatements` pool
   * (PostgreSQL) given to the dialect (`openKyselyFromUrl` returns it). The read
   * behind every authenticated request then runs its prepared statement below
   * kysely: directly when no transaction is open (SQLite), on a pooled connection
   * of its own (PostgreSQL).
   */
  directReads?: DirectReads;
  /**
   * Upper bound of one store call, every statement and wait included; past it the
   * call rejects with `StoreUnavailableError` (503). Statements still on the wire
   * end with their connection when the pool is guarded (`openKyselyFromUrl` does
   * it; see `guardPostgresPool` / `guardMysqlPool`). On SQLite a call that meets
   * SQLITE_BUSY is retried asynchronously until this deadline.
   * @default 5000
   */
  operationTimeoutMs?: number;
  /**
   * Keep the activity history (the core's JWT_SESSION_ACTIVITY) in `<tableName>_activity`
   * (migration 0006-session-activity): the store then has `appendActivity` and `listActivity`,
   * `checkSchema` checks that table too, and `purgeExpired` deletes its entries past their
   * retention. Off, the table is never touched. @default false
   */
  activity?: boolean;
}

/** What every store operation needs: the database, its dialect, names and prepared statements. */
export interface StoreContext {
  readonly db: Kysely<SessionDb>;
  readonly dialect: SqlDialect;
  readonly names: TableNames;
  readonly queries: SessionQueries;
  /** Rows deleted per DELETE statement of a purge. */
  readonly purgeBatchSize: number;
  readonly directReads: DirectReads | undefined;
  /** The deadline of each call, and whether SQLITE_BUSY is retried within it. */
  readonly policy: GuardPolicy;
  /** The activity history is kept (`activity` option). */
  readonly activity: boolean;
}

/** Validates the options and compiles the hot statements once, for this dialect. */
export function createStoreContext<DB>(db: Kysely<DB>, options: KyselyStoreOptions = {}): StoreContext {
  const sessionDb = db as unknown as Kysely<SessionDb>;
  const dialect = resolveDialect(sessionDb, options.dialect);
  const names = tableNames(options.tableName);
  const purgeBatchSize = options.purgeBatchSize ?? 1000;
  if (!Number.isInteger(purgeBatchSize) || purgeBatchSize < 1) {
    throw new TypeError('@sessauth/kysely: purgeBatchSize must be a positive integer');
  }
  return {
    db: sessionDb,
    dialect,
    names,
    queries: prepareSessionQueries(sessionDb, names.session, dialect),
    purgeBatchSize,
    directReads: options.directReads,
    policy: { timeoutMs: operationTimeout(options.operationTimeoutMs) },
    activity: options.activity === true,
  };
}

/** Rows changed by an UPDATE/DELETE; drivers report it as a bigint. */
export function affectedRows(result: QueryResult<unknown>): number {
  return Number(result.numAffectedRows ?? 0n);
}
