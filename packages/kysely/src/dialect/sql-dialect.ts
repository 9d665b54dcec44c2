import type { ColumnDefinitionBuilder, Kysely, RawBuilder } from 'kysely';
import type { RateLimitDb, TableNames } from '../schema.js';

export type DialectName = 'postgres' | 'mysql' | 'sqlite';

/** A counter after one hit: the count in the window and when the window ends. */
export interface CounterState {
  readonly count: number;
  readonly resetAtMs: number;
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
  /** Atomically counts one hit of a fixed window (the rate-limit store). */
  hitCounter(db: Kysely<RateLimitDb>, table: string, key: string, nowMs: number, windowMs: number): Promise<CounterState>;
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
