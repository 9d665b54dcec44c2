import { spread, type Spread } from '../stats.js';

/** One thing to measure: `once` is one operation; `callers` run it back to back, concurrently. */
export interface RateTarget {
  readonly name: string;
  readonly callers: number;
  /** Each caller gets its own index (its own token, its own session). */
  once(caller: number): Promise<unknown>;
}

/** Operations per second of `target` over `seconds`, `callers` loops at once. */
export async function measureRate(target: RateTarget, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const loop = async (caller: number) => {
    while (performance.now() < end) {
      await target.once(caller);
      done += 1;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: target.callers }, (_, i) => loop(i)));
  return done / ((performance.now() - start) / 1000);
}

/**
 * The targets take turns, one slice each per round, after one unmeasured warm-up
 * slice each: machine noise then hits them alike, and per-round ratios hold.
 */
export async function alternate(targets: readonly RateTarget[], rounds: number, seconds: number): Promise<Map<string, number[]>> {
  for (const target of targets) await measureRate(target, Math.min(1, seconds));
  const rates = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) rates.get(target.name)!.push(await measureRate(target, seconds));
  }
  return rates;
}

/** Per-round ratios of two series measured by `alternate`. */
export function ratioSpread(numerator: readonly number[], denominator: readonly number[]): Spread {
  return spread(numerator.map((value, i) => value / denominator[i]!));
}
