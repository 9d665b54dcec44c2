import type { RateLimitHit, RateLimitStore } from '../store/store-port.js';

/**
 * `hitMany` made of `hit`s: one call per key, in order, stopping after the first past its
 * limit. For a store whose keys cannot share one step; it keeps `hitMany`'s order and stop
 * rule, not its single round trip.
 */
export async function hitInOrder(
  store: Pick<RateLimitStore, 'hit'>,
  hits: readonly RateLimitHit[],
  now: Date,
): Promise<Array<{ count: number; resetAt: Date }>> {
  const results: Array<{ count: number; resetAt: Date }> = [];
  for (const { key, windowSec, limit } of hits) {
    const result = await store.hit(key, windowSec, now);
    results.push(result);
    if (result.count > limit) break;
  }
  return results;
}
