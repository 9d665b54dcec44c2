import { createHash } from 'node:crypto';
import type { RateLimitStore } from '@sessauth/core';
import type { RateLimitHit } from '@sessauth/core/store';
import type { Kysely } from 'kysely';
import { resolveDialect } from './dialect/resolve-dialect.js';
import type { CounterState, DialectName, SqlDialect } from './dialect/sql-dialect.js';
import { DEFAULT_RATE_LIMIT_TABLE, tableNames, type RateLimitDb, type TableNames } from './schema.js';
import { guard, operationTimeout, type GuardPolicy } from './store-guard.js';
import { verifySchema } from './verify-schema.js';
import { runInOneTrip } from './one-trip.js';

export interface KyselyRateLimitStoreOptions {
  /** Detected from the Kysely instance's adapter when omitted. */
  dialect?: DialectName;
  /** As given to `migrateToLatest`. @default 'sessauth_rate_limit' */
  tableName?: string;
  /** Rows per DELETE statement in `purgeExpired`. @default 1000 */
  purgeBatchSize?: number;
  /** Upper bound of one call, as for the session store (503 past it). @default 5000 */
  operationTimeoutMs?: number;
}

/**
 * Fixed-window counters shared by every instance that uses the same database. Each
 * hit is one atomic upsert (PostgreSQL/SQLite: INSERT ... ON CONFLICT DO UPDATE
 * ... RETURNING; MySQL: INSERT ... ON DUPLICATE KEY UPDATE and a read-back in one
 * transaction). Keys are stored as SHA-256 digests: bounded length, and no client
 * IP or username at rest. A database fault throws, so the limiter denies.
 */
export class KyselyRateLimitStore<DB = unknown> implements RateLimitStore {
  readonly #db: Kysely<RateLimitDb>;
  readonly #dialect: SqlDialect;
  readonly #names: TableNames;
  readonly #table: string;
  readonly #batch: number;
  readonly #policy: GuardPolicy;

  constructor(db: Kysely<DB>, options: KyselyRateLimitStoreOptions = {}) {
    this.#db = db as unknown as Kysely<RateLimitDb>;
    this.#dialect = resolveDialect(this.#db, options.dialect);
    this.#names = tableNames(undefined, options.tableName ?? DEFAULT_RATE_LIMIT_TABLE);
    this.#table = this.#names.rateLimit;
    this.#batch = options.purgeBatchSize ?? 1000;
    this.#policy = { timeoutMs: operationTimeout(options.operationTimeoutMs) };
  }

  hit(key: string, windowSec: number, now: Date): Promise<{ count: number; resetAt: Date }> {
    return guard('rate limit hit', this.#policy, async () => {
      const state = await this.#dialect.hitCounter(this.#db, this.#table, digestOf(key), now.getTime(), windowSec * 1000);
      return { count: state.count, resetAt: new Date(state.resetAtMs) };
    });
  }

  /**
   * The hits in order, stopping after the first past its limit: one statement on PostgreSQL
   * (chained upserts) and MariaDB (a compound statement), in process on SQLite; one statement
   * per hit on MySQL (each atomic, in order).
   */
  hitMany(hits: readonly RateLimitHit[], now: Date): Promise<Array<{ count: number; resetAt: Date }>> {
    return guard('rate limit hitMany', this.#policy, async () => {
      const counters = hits.map((hit) => ({ key: digestOf(hit.key), windowMs: hit.windowSec * 1000, limit: hit.limit }));
      const nowMs = now.getTime();
      let states: CounterState[] | null = null;
      if (this.#dialect.hitCounters !== undefined) states = await this.#dialect.hitCounters(this.#db, this.#table, counters, nowMs);
      else states = statesOf(await runInOneTrip(this.#db, this.#dialect.oneTripHits?.(this.#table, counters, nowMs)), counters.length);
      if (states === null) {
        states = [];
        for (const counter of counters) {
          const state = await this.#dialect.hitCounter(this.#db, this.#table, counter.key, nowMs, counter.windowMs);
          states.push(state);
          if (state.count > counter.limit) break;
        }
      }
      return states.map((state) => ({ count: state.count, resetAt: new Date(state.resetAtMs) }));
    });
  }

  /**
   * The start-up check (`createSessauth` calls it): the counters table has every
   * column of every migration. Rejects with `StoreSchemaError` (e.g. migration
   * `0002-create-rate-limit` not run), or `StoreUnavailableError` when the database
   * cannot be asked.
   */
  checkSchema(): Promise<void> {
    return guard('rate limit checkSchema', this.#policy, () =>
      verifySchema(this.#db as unknown as Kysely<unknown>, this.#dialect, this.#names, ['rateLimit']),
    );
  }

  /** @deprecated Renamed `checkSchema` (in sessauth, `verify` means tokens). */
  verify(): Promise<void> {
    return this.checkSchema();
  }

  /** Deletes counters whose window has ended, in bounded batches; returns how many. */
  purgeExpired(now: Date): Promise<number> {
    return guard('rate limit purge', this.#policy, async () => {
      let deleted = 0;
      for (;;) {
        const keys = await this.#db.selectFrom(this.#table).select('counter_key').where('reset_at', '<=', now.getTime()).limit(this.#batch).execute();
        if (keys.length === 0) return deleted;
        const result = await this.#db
          .deleteFrom(this.#table)
          .where(
            'counter_key',
            'in',
            keys.map((row) => row.counter_key),
          )
          .where('reset_at', '<=', now.getTime())
          .executeTakeFirst();
        deleted += Number(result.numDeletedRows);
        if (keys.length < this.#batch) return deleted;
      }
    });
  }
}

/** The stored form of a counter key: SHA-256, base64url (no client IP or username at rest). */
function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** The one row of MariaDB's compound hits (`c<i>`, `r<i>`, null past the last hit made) as counter states. */
function statesOf(rows: unknown[] | null, hits: number): CounterState[] | null {
  if (rows === null) return null;
  const row = rows[0] as Record<string, number | string | null> | undefined;
  if (row === undefined) throw new Error('rate limit hitMany answered no row');
  const states: CounterState[] = [];
  for (let index = 0; index < hits; index += 1) {
    const count = row[`c${index}`];
    const resetAt = row[`r${index}`];
    if (count === null || count === undefined || resetAt === null || resetAt === undefined) break;
    states.push({ count: Number(count), resetAtMs: Number(resetAt) });
  }
  return states;
}
