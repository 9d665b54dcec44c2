import { createHash } from 'node:crypto';
import { hitInOrder, type RateLimitHit, type RateLimitStore } from '@sessauth/core/store';
import type { SessauthPrismaClient } from '../client/prisma-like.js';
import { StoreCollationError } from '../store/collation-error.js';
import { guard } from '../store/guard.js';
import { type ClientContext, type ClientOptions, createClientContext } from '../store/store-context.js';
import { verifySchema } from '../store/verify-schema.js';

export interface PrismaRateLimitStoreOptions extends ClientOptions {
  /** The counters table, when your `@@map` renamed it. @default 'sessauth_rate_limit' */
  tableName?: string;
}

/**
 * Fixed-window counters shared by every instance on the same database. Each hit is one atomic
 * upsert (PostgreSQL/SQLite: INSERT ... ON CONFLICT DO UPDATE ... RETURNING; MySQL: INSERT ... ON
 * DUPLICATE KEY UPDATE and a read-back in one transaction), raw SQL because Prisma's `upsert`
 * cannot restart a window. Keys are stored as SHA-256 digests: bounded length, and no client IP
 * or username at rest. A database fault throws, so the limiter denies.
 */
export class PrismaRateLimitStore implements RateLimitStore {
  readonly #ctx: ClientContext;

  constructor(prisma: SessauthPrismaClient, options: PrismaRateLimitStoreOptions) {
    this.#ctx = createClientContext(
      prisma,
      options,
      { session: 'sessauth_session', rateLimit: options.tableName ?? 'sessauth_rate_limit' },
      'sessauthRateLimit',
    );
  }

  hit(key: string, windowSec: number, now: Date): Promise<{ count: number; resetAt: Date }> {
    return guard('rate limit hit', this.#ctx.timeoutMs, () => this.#hit(key, windowSec, now));
  }

  /**
   * The hits in order, stopping after the first past its limit: one statement on PostgreSQL
   * (chained upserts), one hit at a time on MySQL and SQLite (each atomic, in order), all
   * within one deadline.
   */
  hitMany(hits: readonly RateLimitHit[], now: Date): Promise<Array<{ count: number; resetAt: Date }>> {
    const { client, sql, names } = this.#ctx;
    const hitCounters = sql.hitCounters;
    return guard('rate limit hitMany', this.#ctx.timeoutMs, async () => {
      // One deadline for the whole call, also where the hits go one at a time.
      if (hitCounters === undefined || hits.length === 0)
        return hitInOrder({ hit: (key, windowSec, at) => this.#hit(key, windowSec, at) }, hits, now);
      const counters = hits.map((hit) => ({ key: digestOf(hit.key), windowMs: hit.windowSec * 1000, limit: hit.limit }));
      const states = await hitCounters(client, names, counters, now.getTime());
      return states.map((state) => ({ count: state.count, resetAt: new Date(state.resetAtMs) }));
    });
  }

  /** One counter's hit, unguarded (the caller's guard bounds it). */
  async #hit(key: string, windowSec: number, now: Date): Promise<{ count: number; resetAt: Date }> {
    const { client, sql, names, transaction } = this.#ctx;
    const state = await sql.hitCounter(client, names, digestOf(key), now.getTime(), windowSec * 1000, transaction);
    return { count: state.count, resetAt: new Date(state.resetAtMs) };
  }

  /** The start-up check: the counters table has every column (and, on MySQL, a binary key). */
  checkSchema(): Promise<void> {
    const { client, sql, names, plain } = this.#ctx;
    return guard('rate limit verify', this.#ctx.timeoutMs, async () => {
      await verifySchema(client, sql.quote, [['rateLimit', names.rateLimit, plain.rateLimit]]);
      const wrong = await sql.nonBinaryCollation?.(client, [[plain.rateLimit, ['counter_key']]]);
      if (wrong) throw new StoreCollationError(wrong.table, wrong.column);
    });
  }

  /** @deprecated Renamed `checkSchema` (in sessauth, `verify` means tokens). */
  verify(): Promise<void> {
    return this.checkSchema();
  }

  /** Deletes counters whose window has ended, in bounded batches; returns how many. */
  purgeExpired(now: Date): Promise<number> {
    const counters = this.#ctx.client.sessauthRateLimit;
    const ended = { lte: now.getTime() };
    return guard('rate limit purge', this.#ctx.timeoutMs, async () => {
      let deleted = 0;
      for (;;) {
        const keys = await counters.findMany({ where: { resetAt: ended }, take: this.#ctx.purgeBatchSize });
        if (keys.length === 0) return deleted;
        deleted += (await counters.deleteMany({ where: { counterKey: { in: keys.map((row) => row.counterKey) }, resetAt: ended } })).count;
        if (keys.length < this.#ctx.purgeBatchSize) return deleted;
      }
    });
  }
}

/** The stored form of a counter key: SHA-256, base64url (no client IP or username at rest). */
function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}
