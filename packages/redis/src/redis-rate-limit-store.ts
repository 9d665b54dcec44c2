import { createHash } from 'node:crypto';
import type { RateLimitStore } from '@sessauth/core';
import { hitInOrder, type RateLimitHit } from '@sessauth/core/store';
import { refuseUnsupportedClient } from './client-options.js';
import { guard } from './guard.js';
import { KeyLayout } from './keys.js';
import type { RedisLike } from './redis-like.js';
import { DEFAULT_OPERATION_TIMEOUT_MS } from './redis-store-options.js';
import { runScript } from './script-runner.js';
import { SCRIPTS } from './scripts/session-scripts.js';
import { verifyServer } from './verify-server.js';

export interface RedisRateLimitStoreOptions {
  /** An ioredis `Redis` or `Cluster`; it may be the session store's client. */
  readonly client: RedisLike;
  /** @default 'sessauth:' (counters live under `<prefix>rl:`) */
  readonly keyPrefix?: string;
  /** @default 2000 */
  readonly operationTimeoutMs?: number;
}

/**
 * Fixed-window counters in Redis, shared by every instance of a fleet whichever
 * store keeps the sessions. One hit is one script: INCR, and PEXPIRE on the first
 * hit of a window, atomically. It fails closed: any fault or timeout rejects with
 * `StoreUnavailableError` and the core denies the request.
 *
 * A counter's key is the SHA-256 digest of the core's key (`<prefix>rl:<base64url>`),
 * as the SQL limiter stores it: no client IP or username in Redis (where `SCAN`,
 * `MONITOR` and RDB dumps would show it), and a bounded key length.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly client: RedisLike;
  private readonly keys: KeyLayout;
  private readonly timeoutMs: number;

  constructor(options: RedisRateLimitStoreOptions) {
    refuseUnsupportedClient(options.client, 'RedisRateLimitStore');
    this.client = options.client;
    this.keys = new KeyLayout(options.keyPrefix);
    this.timeoutMs = options.operationTimeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS;
  }

  hit(key: string, windowSec: number, now: Date): Promise<{ count: number; resetAt: Date }> {
    return guard('rateLimit.hit', this.timeoutMs, async () => {
      const reply = await runScript(this.client, SCRIPTS.rateLimitHit, [this.keys.counter(digestOf(key))], [windowMsOf(windowSec)]);
      return counterOf(reply, now, 'rateLimit.hit');
    });
  }

  /**
   * The hits in order in one script (one round trip), stopping after the first past its limit.
   * On a cluster, where the counters live in different slots, one script per key, in order.
   */
  hitMany(hits: readonly RateLimitHit[], now: Date): Promise<Array<{ count: number; resetAt: Date }>> {
    if (this.client.isCluster === true) return hitInOrder(this, hits, now);
    return guard('rateLimit.hitMany', this.timeoutMs, async () => {
      const keys = hits.map((hit) => this.keys.counter(digestOf(hit.key)));
      const args = hits.flatMap((hit) => [windowMsOf(hit.windowSec), hit.limit]);
      const reply = await runScript(this.client, SCRIPTS.rateLimitHitMany, keys, args);
      if (!Array.isArray(reply) || reply.length > hits.length) throw new Error('rateLimit.hitMany: malformed reply');
      return reply.map((entry: unknown) => counterOf(entry, now, 'rateLimit.hitMany'));
    });
  }

  /** The start-up check, as the session store's: the server answers and runs scripts. */
  checkSchema(): Promise<void> {
    return verifyServer(this.client, this.timeoutMs, 'rateLimit.checkSchema');
  }

  /** @deprecated Renamed `checkSchema` (in sessauth, `verify` means tokens). */
  verify(): Promise<void> {
    return this.checkSchema();
  }
}

/** The stored form of a limiter key: SHA-256, base64url (43 characters). */
export function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

function windowMsOf(windowSec: number): number {
  return Math.max(1, Math.round(windowSec * 1000));
}

/** A script's `{ count, ms until reset }` as a counter. */
function counterOf(reply: unknown, now: Date, operation: string): { count: number; resetAt: Date } {
  if (!Array.isArray(reply)) throw new Error(`${operation}: malformed reply`);
  const count = Number(reply[0]);
  const remainingMs = Number(reply[1]);
  if (!Number.isInteger(count) || !Number.isFinite(remainingMs)) throw new Error(`${operation}: malformed reply`);
  return { count, resetAt: new Date(now.getTime() + remainingMs) };
}
