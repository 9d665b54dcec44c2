import type { ResolvedOptions } from '../options/options.js';

/**
 * How long a claimed (or held) row is left alone before another claim may take it: longer
 * than one push can take, so a live dispatcher never sees its own row claimed twice, and short
 * enough that a crash delays delivery by seconds, not hours.
 */
export function claimLeaseMilliseconds(options: ResolvedOptions): number {
  return 2 * options.ssfPushTimeoutMilliseconds + 5000;
}

/**
 * The wait before attempt `attempts + 1`: exponential from the base, capped, with "equal
 * jitter" (half fixed, half random) so receivers recovering from an outage are not hit by
 * every transmitter's retries in the same instant, yet each wait keeps growing.
 */
export function retryDelayMilliseconds(options: ResolvedOptions, attempts: number, random: () => number = Math.random): number {
  const exponential = Math.min(options.ssfRetryMaxMilliseconds, options.ssfRetryBaseMilliseconds * 2 ** Math.min(attempts - 1, 30));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}
