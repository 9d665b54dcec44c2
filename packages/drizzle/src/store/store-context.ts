import type { SessionEngine } from './engine.js';
import { operationTimeout } from './guard.js';
import { type DrizzleDatabase, resolveEngine, type SessauthTables } from './resolve-engine.js';
import type { SessionTable } from './tables.js';

export interface DrizzleStoreOptions {
  /**
   * The tables, when you built them under other names (`sessauthPgTables({ tableName })`, or
   * the MySQL/SQLite ones) or another MySQL collation. @default this package's tables for the
   * database's dialect, under their default names
   */
  tables?: SessauthTables;
  /** Rows per DELETE statement in `purgeExpired`. @default 1000 */
  purgeBatchSize?: number;
  /**
   * Upper bound of one store call, every statement, retry and wait for a connection
   * included; past it the call rejects with `StoreUnavailableError` (503). Give the pool a
   * statement timeout of about the same (see the README), so a statement the store gave up
   * on does not hold its connection. @default 5000
   */
  operationTimeoutMs?: number;
  /**
   * Keep the activity history (the core's JWT_SESSION_ACTIVITY) in the `activity` table of the
   * tables (`sessauth_session_activity`; add it to your schema: `export const { activity:
   * sessauthSessionActivity } = sessauthPgTables()`): the store then has `appendActivity` and
   * `listActivity`, `checkSchema` checks that table, and `purgeExpired` deletes entries past
   * their retention. Off, the table is never touched. @default false
   */
  activity?: boolean;
  /**
   * Keep the Shared Signals transmitter's outbox (the core's JWT_SSF_TRANSMITTER, which refuses
   * a store without it) in the `securityEvent` table of the tables (`sessauth_session_security_event`;
   * add it to your schema: `export const { securityEvent: sessauthSessionSecurityEvent } =
   * sessauthPgTables()`): the store then has `holdSecurityEvents`, `releaseSecurityEvents`,
   * `claimSecurityEvents` and `settleSecurityEvent`, and `checkSchema` checks that table. Off,
   * the table is never touched. @default false
   */
  securityEventOutbox?: boolean;
}

/** What every operation of the session store needs. */
export interface StoreContext {
  readonly engine: SessionEngine;
  readonly t: SessionTable;
  readonly purgeBatchSize: number;
  readonly timeoutMs: number;
  readonly activity: boolean;
  readonly securityEventOutbox: boolean;
}

export function createStoreContext(db: DrizzleDatabase, options: DrizzleStoreOptions): StoreContext {
  const purgeBatchSize = options.purgeBatchSize ?? 1000;
  if (!Number.isInteger(purgeBatchSize) || purgeBatchSize < 1) throw new TypeError('@sessauth/drizzle: purgeBatchSize must be a positive integer');
  const engine = resolveEngine(db, options.tables);
  return {
    engine,
    t: engine.tables.session,
    purgeBatchSize,
    timeoutMs: operationTimeout(options.operationTimeoutMs),
    activity: options.activity === true,
    securityEventOutbox: options.securityEventOutbox === true,
  };
}
