import { createHash } from 'node:crypto';
import { hitInOrder, type RateLimitHit, type RateLimitStore } from '@sessauth/core/store';
import { and, inArray, lte } from 'drizzle-orm';
import { StoreCollationError } from '../store/collation-error.js';
import type { SessionEngine } from '../store/engine.js';
import { guard, operationTimeout } from '../store/guard.js';
import { type DrizzleDatabase, resolveEngine, type SessauthTables } from '../store/resolve-engine.js';
import { verifySchema } from '../store/verify-schema.js';

export interface DrizzleRateLimitStoreOptions {
  /** As for the session store: the tables when you built them under other names. */
  tables?: SessauthTables;
  /** Rows per DELETE statement in `purgeExpired`. @default 1000 */
  purgeBatchSize?: number;
  /** Upper bound of one call (503 past it). @default 5000 */
  operationTimeoutMs?: number;
}

/**
 * Fixed-window counters shared by every instance on the same database. Each hit is one atomic
 * upsert (PostgreSQL/SQLite: INSERT ... ON CONFLICT DO UPDATE ... RETURNING; MySQL: INSERT ...
 * ON DUPLICATE KEY UPDATE and a read-back in one transaction). Keys are stored as SHA-256
 * digests: bounded length, and no client IP or username at rest. A database fault throws, so
 * the limiter denies.
 */
export class DrizzleRateLimitStore implements RateLimitStore {
  readonly #engine: SessionEngine;
  readonly #batch: number;
  readonly #timeoutMs: number;

  constructor(db: DrizzleDatabase, options: DrizzleRateLimitStoreOptions = {}) {
    this.#engine = resolveEngine(db, options.tables);
    this.#batch = options.purgeBatchSize ?? 1000;
    if (!Number.isInteger(this.#batch) || this.#batch < 1) throw new TypeError('@sessauth/drizzle: purgeBatchSize must be a positive integer');
    this.#timeoutMs = operationTimeout(options.operationTimeoutMs);
  }

  hit(key: string, windowSec: number, now: Date): Promise<{ count: number; resetAt: Date }> {
    return guard('rate limit hit', this.#timeoutMs, () => this.#hit(key, windowSec, now));
  }

  /**
   * The hits in order, stopping after the first past its limit: one statement on PostgreSQL
   * (chained upserts), one hit at a time on MySQL and SQLite (each atomic, in order), all
   * within one deadline.
   */
  hitMany(hits: readonly RateLimitHit[], now: Date): Promise<Array<{ count: number; resetAt: Date }>> {
    const hitCounters = this.#engine.hitCounters;
    return guard('rate limit hitMany', this.#timeoutMs, async () => {
      // One deadline for the whole call, also where the hits go one at a time.
      if (hitCounters === undefined || hits.length === 0)
        return hitInOrder({ hit: (key, windowSec, at) => this.#hit(key, windowSec, at) }, hits, now);
      const counters = hits.map((hit) => ({ key: digestOf(hit.key), windowMs: hit.windowSec * 1000, limit: hit.limit }));
      const states = await hitCounters(counters, now.getTime());
      return states.map((state) => ({ count: state.count, resetAt: new Date(state.resetAtMs) }));
    });
  }

  /** One counter's hit, unguarded (the caller's guard bounds it). */
  async #hit(key: string, windowSec: number, now: Date): Promise<{ count: number; resetAt: Date }> {
    const state = await this.#engine.hitCounter(digestOf(key), now.getTime(), windowSec * 1000);
    return { count: state.count, resetAt: new Date(state.resetAtMs) };
  }

  /** The start-up check: the counters table has every column (and, on MySQL, a binary key). */
  checkSchema(): Promise<void> {
    return guard('rate limit verify', this.#timeoutMs, async () => {
      await verifySchema(this.#engine.db, [['rateLimit', this.#engine.tables.rateLimit]]);
      const wrong = await this.#engine.nonBinaryCollation?.('rateLimit');
      if (wrong) throw new StoreCollationError(wrong.table, wrong.column);
    });
  }

  /** @deprecated Renamed `checkSchema` (in sessauth, `verify` means tokens). */
  verify(): Promise<void> {
    return this.checkSchema();
  }

  /** Deletes counters whose window has ended, in bounded batches; returns how many. */
  purgeExpired(now: Date): Promise<number> {
    const { db, tables, changed } = this.#engine;
    const t = tables.rateLimit;
    return guard('rate limit purge', this.#timeoutMs, async () => {
      let deleted = 0;
      for (;;) {
        const ended = lte(t.resetAt, now.getTime());
        const keys = await db.select<{ key: string }>({ key: t.counterKey }).from(t).where(ended).limit(this.#batch);
        if (keys.length === 0) return deleted;
        deleted += await changed(
          db.delete(t).where(
            and(
              inArray(
                t.counterKey,
                keys.map((row) => row.key),
              ),
              ended,
            ),
          ),
        );
        if (keys.length < this.#batch) return deleted;
      }
    });
  }
}

/** The stored form of a counter key: SHA-256, base64url (no client IP or username at rest). */
function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}
