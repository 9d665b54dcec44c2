import type { Column, SQL, Table } from 'drizzle-orm';
import type { RotateOutcome } from '@sessauth/core/store';
import type { RotateValues } from './conditions.js';
import type { SwapResult } from './rotate-outcome.js';
import type { SessionRow } from './session-row.js';
import type { ActivityRow } from './activity-row.js';
import type { ActivityTable, RateLimitTable, SecurityEventTable, SessionTable } from './tables.js';

export type EngineName = 'postgres' | 'mysql' | 'sqlite';

/** A SELECT being built; awaited, its rows. */
export interface SelectQuery<Row> extends PromiseLike<Row[]> {
  where(condition: SQL | undefined): SelectQuery<Row>;
  orderBy(...order: Array<SQL | Column>): SelectQuery<Row>;
  limit(count: number): SelectQuery<Row>;
  offset(count: number): SelectQuery<Row>;
}

/** An UPDATE or DELETE with its WHERE; awaited, the driver's own result (see `SessionEngine.changed`). */
export interface WriteQuery extends PromiseLike<unknown> {
  /** PostgreSQL and SQLite only. */
  returning?(fields: Record<string, SQL | Column>): PromiseLike<unknown[]>;
}

/**
 * The query-builder calls the stores make outside a transaction. drizzle's PostgreSQL, MySQL
 * and SQLite databases all have them, each with types of its own dialect; the stores build
 * their conditions from columns alone, so one typing serves all three (the row types are the
 * ones the stores select). Everything that differs lives in an engine.
 */
export interface QueryDb {
  select<Row>(fields?: Record<string, SQL | Column>): { from(table: Table): SelectQuery<Row> };
  update(table: Table): { set(values: Record<string, unknown>): { where(condition: SQL | undefined): WriteQuery } };
  insert(table: Table): { values(values: Record<string, unknown>): PromiseLike<unknown> };
  delete(table: Table): { where(condition: SQL | undefined): WriteQuery };
}

/** A counter after one hit. */
export interface CounterState {
  readonly count: number;
  readonly resetAtMs: number;
}

/** One counter of a `hitCounters` call (its key already digested). */
export interface CounterHit {
  readonly key: string;
  readonly windowMs: number;
  readonly limit: number;
}

/** The tables an engine works on (the MySQL one also has the user-lock table). */
export interface EngineTables {
  readonly session: SessionTable;
  readonly rateLimit: RateLimitTable;
  readonly activity: ActivityTable;
  readonly securityEvent: SecurityEventTable;
}

/**
 * Everything that differs between the three engines, one object per engine (pg/, mysql/,
 * sqlite/), chosen once when a store is built: the stores never branch on the name.
 */
export interface SessionEngine {
  readonly name: EngineName;
  /**
   * A read waits on the network (PostgreSQL, MySQL/MariaDB), so the store has the batched
   * `findSessions` the guard coalesces its reads into; SQLite reads in process and has not.
   */
  readonly batchedReads: boolean;
  readonly db: QueryDb;
  readonly tables: EngineTables;
  /** Rows an UPDATE or DELETE of `db` changed. */
  changed(query: WriteQuery): Promise<number>;
  /**
   * Login, in one transaction: take the user's lock (also when the user has no row yet),
   * revoke the oldest active sessions beyond `cap`, insert. Resolves to the row as stored.
   * PostgreSQL with the login function: one statement, waiting for the lock at most `lockWaitMs`.
   */
  insertWithinCap(row: SessionRow, cap: number, lockWaitMs: number): Promise<SessionRow>;
  /** The compare-and-swap as one conditional UPDATE. */
  swap(values: RotateValues): Promise<SwapResult>;
  /**
   * A swap that missed an active session of this user: re-read it under a lock (a row lock,
   * or SQLite's write lock) and revoke it (idle, stale stamp, stale jti) or swap there.
   */
  settleLocked(values: RotateValues): Promise<RotateOutcome>;
  /**
   * The activity history's append, in one transaction under the user's lock (the one logins
   * take): insert the rows, then keep each named session's newest `max` (by id).
   */
  appendActivity(userId: string, rows: readonly ActivityRow[], max: number): Promise<void>;
  /**
   * One multi-row INSERT (all rows or none) that leaves a row whose primary key is already
   * stored as it is: the outbox's hold, which a retried call may repeat.
   */
  insertNew(table: Table & { readonly id: Column }, rows: ReadonlyArray<Record<string, unknown>>): Promise<void>;
  /** One atomic hit of a fixed-window counter. */
  hitCounter(key: string, nowMs: number, windowMs: number): Promise<CounterState>;
  /**
   * The hits in order in one statement, stopping after the first past its limit (the rate-limit
   * port's `hitMany`). PostgreSQL (chained upserts) and MySQL/MariaDB (a compound statement on MariaDB,
   * one transaction per hit on MySQL); SQLite's store makes them one `hitCounter` at a time.
   */
  hitCounters?(hits: readonly CounterHit[], nowMs: number): Promise<CounterState[]>;
  /** The tables `verify()` checks for the session store (MySQL: with the user-lock table). */
  readonly sessionSchema: readonly Table[];
  /**
   * MySQL/MariaDB: the first text column of the session tables (or of the rate-limit table)
   * that does not compare byte for byte ("table.column (collation)"), or null when every one does.
   */
  nonBinaryCollation?(tables: 'session' | 'rateLimit'): Promise<{ table: string; column: string } | null>;
}
