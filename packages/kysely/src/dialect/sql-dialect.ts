import type { ColumnDefinitionBuilder, CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { RateLimitDb, TableNames } from '../schema.js';
import type { SessionInsert } from '../session-row.js';

export type DialectName = 'postgres' | 'mysql' | 'sqlite';

/** A counter after one hit: the count in the window and when the window ends. */
export interface CounterState {
  readonly count: number;
  readonly resetAtMs: number;
}

/** One counter of a multi-counter hit: its stored key, its window, the count past which it refuses. */
export interface CounterHit {
  readonly key: string;
  readonly windowMs: number;
  readonly limit: number;
}

/**
 * Everything that differs between the three SQL engines, in one small object per
 * engine (postgres.ts, mysql.ts, sqlite.ts). The store never branches on the name.
 */
export interface SqlDialect {
  readonly name: DialectName;
  /** `UPDATE ... RETURNING` exists (PostgreSQL, SQLite); MySQL/MariaDB re-read the row. */
  readonly updateReturning: boolean;
  /** Row locks via `SELECT ... FOR UPDATE`; SQLite serialises whole write transactions instead. */
  readonly rowLocks: boolean;
  /** Runs `fn` in one transaction on one connection and commits before resolving. */
  transaction<DB, T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * Serialises the logins of one user until the transaction ends, also when the
   * user has no session rows yet (locking zero rows would lock nothing).
   */
  lockUser<DB>(trx: Kysely<DB>, names: TableNames, userId: string): Promise<void>;
  /**
   * Login's write (lock, cap, insert) as one round trip: one compound statement (MariaDB), one
   * statement calling migration 0009's function (PostgreSQL). It answers one row, the newcomer's
   * `expired_at` (on MariaDB inside a result set of its own). Absent, or refused as a syntax
   * error (MySQL has no compound statement outside a stored program), an undefined function
   * (PostgreSQL before migration 0009) or the function's refusal of an isolation level other
   * than READ COMMITTED: a transaction of statements.
   */
  oneTripCreate?(names: TableNames, row: SessionInsert, maxActiveSessions: number, lockWaitMs: number): CompiledQuery;
  /**
   * Where `UPDATE ... RETURNING` is missing (MariaDB): the refresh swap and its read-back of the
   * swapped row as one round trip, the read only when the update changed the row (no rows: no
   * swap). Absent, or refused as a syntax error (MySQL): two statements.
   */
  oneTripRotate?(update: CompiledQuery, read: CompiledQuery): CompiledQuery;
  /** Atomically counts one hit of a fixed window (the rate-limit store). */
  hitCounter(db: Kysely<RateLimitDb>, table: string, key: string, nowMs: number, windowMs: number): Promise<CounterState>;
  /**
   * Several hits in order in one step (the rate-limit store's `hitMany`), stopping after the
   * first whose count is above its limit; returns the states of the hits made. Absent: one
   * `hitCounter` per hit, in order.
   */
  hitCounters?(db: Kysely<RateLimitDb>, table: string, hits: readonly CounterHit[], nowMs: number): Promise<CounterState[]>;
  /**
   * The same as one compound statement (MariaDB), answering one row `c<i>`, `r<i>` (count and
   * window end of hit i, null for a hit not made). Refused as a syntax error (MySQL): one
   * `hitCounter` per hit.
   */
  oneTripHits?(table: string, hits: readonly CounterHit[], nowMs: number): CompiledQuery;
  /** Migration: how the session id column is declared (PostgreSQL pins a byte-order collation). */
  idColumn(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** Migration: table options appended to CREATE TABLE (MySQL: InnoDB, utf8mb4, binary collation). */
  tableOptions(db: Kysely<unknown>): Promise<RawBuilder<unknown> | null>;
  /** Migration: the per-user lock table, where `lockUser` needs one. */
  readonly needsUserLockTable: boolean;
  /**
   * The guard's session read as one text column, where the driver's per-column cost is
   * the larger part of a read by primary key (`pg` describes and builds every column of
   * every row anew: 13 columns cost it more than the round trip's own work). Absent:
   * the read selects the columns as they are.
   */
  packColumns?(columns: readonly string[]): RawBuilder<string>;
  /**
   * How `findSessions` (the guard's coalesced reads) names many ids in one statement:
   * `any-array`, one array parameter (`id = any($1)`, one prepared statement for every
   * batch size); `in-list`, a bounded `in (?, ...)` prepared per power-of-two length.
   * Absent (SQLite): no batched read, the store's synchronous read has nothing to coalesce.
   */
  readonly batchedRead?: 'any-array' | 'in-list';
}
