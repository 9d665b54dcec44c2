import type { Parameters } from 'fast-check';

/**
 * How many cases a property runs: the issue's `full` count (10^5 inputs per parser,
 * 10^4 requests per adapter), or a smaller `ci` default where the full count does not
 * fit the CI budget (the whole fuzz and property set runs in about 2 minutes).
 */
export interface RunCounts {
  readonly full: number;
  /** The default when `SESSAUTH_FUZZ_RUNS` is unset. @default full */
  readonly ci?: number;
}

/**
 * `SESSAUTH_FUZZ_RUNS` picks the counts: unset, the CI defaults; `full`, the full counts
 * (a soak); a number, that factor on the CI defaults (`0.1` for a quick local check).
 */
export function fuzzRuns(counts: RunCounts): number {
  const ci = counts.ci ?? counts.full;
  const setting = process.env.SESSAUTH_FUZZ_RUNS;
  if (setting === undefined || setting === '') return ci;
  if (setting === 'full') return counts.full;
  const scale = Number(setting);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error('SESSAUTH_FUZZ_RUNS must be "full" or a positive factor on the CI counts');
  return Math.max(1, Math.round(ci * scale));
}

/**
 * The vitest timeout of a fuzz test: generous for a busy CI machine, scaled with the
 * run count. It guards against a hang and is never a speed assertion.
 */
export function fuzzTimeoutMs(counts: RunCounts, baseMs = 120_000): number {
  return Math.round(baseMs * Math.max(1, fuzzRuns(counts) / (counts.ci ?? counts.full)));
}

/**
 * fast-check parameters for one property: its run count and a reproducible seed.
 * `SESSAUTH_FUZZ_SEED` replaces the fixed seeds: a number reproduces a run (fast-check
 * prints the seed and counterexample path of every failure), `random` explores. Unset,
 * each property keeps a seed derived from its name, so CI sees the same cases every time.
 */
export function fuzzParameters<T>(name: string, counts: RunCounts, extra: Parameters<T> = {}): Parameters<T> {
  const fromEnv = process.env.SESSAUTH_FUZZ_SEED;
  const seed = fromEnv === 'random' ? undefined : fromEnv !== undefined && fromEnv !== '' ? Number(fromEnv) : fixedSeed(name);
  return { numRuns: fuzzRuns(counts), ...(seed === undefined ? {} : { seed }), ...extra };
}

/** A 32-bit seed from the property's name (FNV-1a): stable across runs and machines. */
function fixedSeed(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
