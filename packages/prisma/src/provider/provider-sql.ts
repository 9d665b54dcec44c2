import type { SessionModelRow } from '@sessauth/core/store';
import type { SessauthPrismaClient, SessauthPrismaTransaction, TransactionOptions } from '../client/prisma-like.js';

/** Prisma's datasource provider names the stores support. */
export type PrismaProvider = 'postgresql' | 'mysql' | 'sqlite';

/** Tables by role, as the raw statements name them (quoted, schema-qualified where asked). */
export interface RawNames {
  readonly session: string;
  readonly userLock: string;
  readonly rateLimit: string;
  /** The activity history (`<session>_activity`, step 0006-session-activity). */
  readonly activity: string;
  /** The Shared Signals outbox (`<session>_security_event`, step 0007-security-event-outbox). */
  readonly securityEvent: string;
  /** The session table's own name, unquoted (the advisory lock's key, as @sessauth/kysely takes it). */
  readonly sessionTable: string;
  /** The `schema` option, unquoted (PostgreSQL), when the statements name one. */
  readonly schema?: string | undefined;
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

/**
 * Everything that differs between the providers, one object each (postgresql.ts, mysql.ts,
 * sqlite.ts), chosen once when a store is built: the stores never branch on the name. Prisma's
 * model API covers the rest; raw SQL is kept to what it cannot say (locks, a conditional upsert).
 */
export interface ProviderSql {
  readonly provider: PrismaProvider;
  /**
   * A read waits on the network (PostgreSQL, MySQL/MariaDB), so the store has the batched
   * `findSessions` the guard coalesces its reads into; SQLite reads in process and has not.
   */
  readonly batchedReads: boolean;
  /** `UPDATE ... RETURNING` through `updateManyAndReturn` (PostgreSQL, SQLite); MySQL re-reads the row. */
  readonly updateReturning: boolean;
  /** The isolation of the stores' interactive transactions, where not the engine's default. */
  readonly isolationLevel?: 'ReadCommitted';
  quote(identifier: string): string;
  /**
   * The end of an INSERT that leaves a row whose primary key (`id`) is already stored as it is
   * (the outbox's hold, which a retried call may repeat); only that conflict, no other error, is let pass.
   */
  readonly keepStoredRow: string;
  /** The raw statements' placeholder for the `index`-th value (1-based): `$1` or `?`. */
  placeholder(index: number): string;
  /**
   * PostgreSQL: the login as one statement through the function of migration
   * 0007_sessauth_login_function (the core's `postgresLoginStatement`), waiting for the user's lock
   * at most `lockWaitMs`; it answers the newcomer's `expired_at` as stored. The others keep the
   * login's transaction.
   */
  loginStatement?(
    names: RawNames,
    row: SessionModelRow<number>,
    maxActiveSessions: number,
    lockWaitMs: number,
  ): { text: string; parameters: unknown[] };
  /** PostgreSQL: whether the database has that function (an undefined_function error may come from inside it). */
  hasLoginFunction?(client: SessauthPrismaClient, names: RawNames): Promise<boolean>;
  /** Serialises the logins of one user until the transaction ends, also before the user's first row exists. */
  lockUser(tx: SessauthPrismaTransaction, names: RawNames, userId: string): Promise<void>;
  /** Locks one session row until the transaction ends (SQLite: nothing; its write lock covers it). */
  lockSession(tx: SessauthPrismaTransaction, names: RawNames, id: string): Promise<void>;
  /** One atomic hit of a fixed-window counter (a transaction of its own where the engine needs one). */
  hitCounter(
    client: SessauthPrismaClient,
    names: RawNames,
    key: string,
    nowMs: number,
    windowMs: number,
    within: TransactionOptions,
  ): Promise<CounterState>;
  /**
   * The hits in order in one statement, stopping after the first past its limit (the rate-limit
   * port's `hitMany`). PostgreSQL only; on the others the store makes them one `hitCounter` at a time.
   */
  hitCounters?(client: SessauthPrismaClient, names: RawNames, hits: readonly CounterHit[], nowMs: number): Promise<CounterState[]>;
  /** MySQL/MariaDB: the first compared text column without a binary collation, or null. */
  nonBinaryCollation?(
    client: SessauthPrismaTransaction,
    checks: ReadonlyArray<readonly [string, readonly string[]]>,
  ): Promise<{ table: string; column: string } | null>;
}
