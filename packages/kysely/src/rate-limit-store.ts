import { createHash } from 'node:crypto';
import type { RateLimitStore } from '@sessauth/core';
import type { Kysely } from 'kysely';
import { resolveDialect } from './dialect/resolve-dialect.js';
import type { DialectName, SqlDialect } from './dialect/sql-dialect.js';
import { DEFAULT_RATE_LIMIT_TABLE, tableNames, type RateLimitDb, type TableNames } from './schema.js';
import { guard, operationTimeout, type GuardPolicy } from './store-guard.js';
import { verifySchema } from './verify-schema.js';

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
      const digest = createHash('sha256').update(key).digest('base64url');
      const state = await this.#dialect.hitCounter(this.#db, this.#table, digest, now.getTime(), windowSec * 1000);
      return { count: state.count, resetAt: new Date(state.resetAtMs) };
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
