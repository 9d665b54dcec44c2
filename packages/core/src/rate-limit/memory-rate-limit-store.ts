import type { RateLimitHit, RateLimitStore } from '../store/store-port.js';

interface Window {
  count: number;
  resetAtMs: number;
}

export interface MemoryRateLimitStoreOptions {
  /**
   * Most live counters kept. Beyond it the oldest windows are dropped (their
   * clients get a fresh budget) so a flood of distinct keys cannot exhaust memory.
   * @default 100000
   */
  readonly maxKeys?: number;
}

/**
 * Fixed-window counters in this process's memory. `hit` does all its work
 * synchronously, so concurrent requests of one process never lose an increment.
 * Not shared between instances: use the Redis or SQL counters for several.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  // Insertion order is window start order: a new window is deleted and re-added.
  readonly #windows = new Map<string, Window>();
  readonly #maxKeys: number;
  #nextSweepAtMs = 0;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.#maxKeys = options.maxKeys ?? 100_000;
    if (!Number.isSafeInteger(this.#maxKeys) || this.#maxKeys < 1) {
      throw new Error('MemoryRateLimitStore: maxKeys must be a positive integer');
    }
  }

  /** Number of counters held (expired ones may linger until the next sweep). */
  get size(): number {
    return this.#windows.size;
  }

  hit(key: string, windowSec: number, now: Date): Promise<{ count: number; resetAt: Date }> {
    return Promise.resolve(this.#count(key, windowSec, now));
  }

  #count(key: string, windowSec: number, now: Date): { count: number; resetAt: Date } {
    const nowMs = now.getTime();
    this.#sweep(nowMs);
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAtMs <= nowMs) {
      window = { count: 0, resetAtMs: nowMs + windowSec * 1000 };
      this.#windows.delete(key);
      this.#windows.set(key, window);
      this.#evictOverflow();
    }
    window.count += 1;
    return { count: window.count, resetAt: new Date(window.resetAtMs) };
  }

  /** The hits in order, stopping after the first one past its limit; synchronous, so one step. */
  async hitMany(hits: readonly RateLimitHit[], now: Date): Promise<Array<{ count: number; resetAt: Date }>> {
    const results: Array<{ count: number; resetAt: Date }> = [];
    for (const { key, windowSec, limit } of hits) {
      const result = this.#count(key, windowSec, now);
      results.push(result);
      if (result.count > limit) break;
    }
    return results;
  }

  /** Drops ended windows, at most once a second of store time (amortised O(1) per hit). */
  #sweep(nowMs: number): void {
    if (nowMs < this.#nextSweepAtMs) return;
    this.#nextSweepAtMs = nowMs + 1000;
    for (const [key, window] of this.#windows) {
      if (window.resetAtMs <= nowMs) this.#windows.delete(key);
    }
  }

  #evictOverflow(): void {
    for (const key of this.#windows.keys()) {
      if (this.#windows.size <= this.#maxKeys) return;
      this.#windows.delete(key);
    }
  }
}
