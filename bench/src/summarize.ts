import type { Sample } from './run-matrix.js';
import { spread, type Spread } from './stats.js';
import { COALESCING_STORES, parseVariant, type Framework } from './variants.js';

export interface VariantSummary {
  readonly variant: string;
  readonly framework: Framework;
  readonly route: string;
  /** The load it was measured at (`saturated-32`, `saturated-256`, `paced-50%`; see load-points.ts). */
  readonly load: string;
  readonly requestsPerSecond: Spread;
  /** To the jose-only route of the same framework at the same load, one ratio per round. */
  readonly ratioToJose: Spread;
  readonly latencyP50Ms: Spread;
  readonly latencyP99Ms: Spread;
  readonly latencyP999Ms: Spread;
  /** The server process's CPU time per request, µs. */
  readonly cpuMicrosPerRequest: Spread;
  /** jose-only's CPU per request over this variant's, per round: the throughput ratio on a CPU of its own. */
  readonly cpuRatioToJose: Spread;
  /** A paced load's arrival rate, req/s (absent at saturation). */
  readonly offeredPerSecond?: Spread | undefined;
  /** A paced load's requests left without an answer, over every round (the variant could not carry the load). */
  readonly unanswered?: number | undefined;
  readonly failures: number;
}

/** A ratio of two variants at one load, taken within each round. */
export interface Comparison {
  readonly name: string;
  readonly load: string;
  /** What is compared: throughput (higher is better) or the p99 latency (lower is better). */
  readonly metric: 'req/s' | 'p99';
  readonly numerator: string;
  readonly denominator: string;
  readonly ratio: Spread;
  /** The same comparison in server CPU per request (denominator's CPU / numerator's CPU, per round). */
  readonly cpuRatio: Spread;
  readonly goal: number | undefined;
  readonly met: boolean | undefined;
}

type Metric = (sample: Sample) => number;
const rate: Metric = (s) => s.result.requestsPerSecond;
const p99: Metric = (s) => s.result.latencyP99Ms;
/** Requests per CPU-second of the server: higher is better, like a rate. */
const cpuEfficiency: Metric = (s) => 1e6 / (s.result.serverCpuMicrosPerRequest ?? Number.NaN);

const byRound = (samples: readonly Sample[], variant: string, metric: Metric) =>
  new Map(samples.filter((s) => s.variant === variant).map((s) => [s.round, metric(s)]));

/** Per-round ratios of `a` to `b` (rounds where both ran; pass the samples of one load). */
export function roundRatios(samples: readonly Sample[], a: string, b: string, metric: Metric = rate): number[] {
  const left = byRound(samples, a, metric);
  const right = byRound(samples, b, metric);
  return [...left]
    .filter(([round]) => right.has(round))
    .map(([round, value]) => value / right.get(round)!)
    .filter(Number.isFinite);
}

const finite = (values: readonly (number | undefined)[]) => values.filter((v): v is number => v !== undefined && Number.isFinite(v));

/** The loads present, in the order they were run. */
export function loadsOf(samples: readonly Sample[]): string[] {
  return [...new Set(samples.map((s) => s.load))];
}

export function summarize(samples: readonly Sample[]): VariantSummary[] {
  const out: VariantSummary[] = [];
  for (const load of loadsOf(samples)) {
    const atLoad = samples.filter((s) => s.load === load);
    for (const id of [...new Set(atLoad.map((s) => s.variant))]) {
      const variant = parseVariant(id);
      const own = atLoad.filter((s) => s.variant === id);
      const offered = finite(own.map((s) => s.result.offeredPerSecond));
      out.push({
        variant: id,
        framework: variant.framework,
        route: id.slice(id.indexOf('/') + 1),
        load,
        requestsPerSecond: spread(own.map((s) => s.result.requestsPerSecond)),
        ratioToJose: spread(roundRatios(atLoad, id, `${variant.framework}/jose`)),
        latencyP50Ms: spread(finite(own.map((s) => s.result.latencyP50Ms))),
        latencyP99Ms: spread(finite(own.map((s) => s.result.latencyP99Ms))),
        latencyP999Ms: spread(finite(own.map((s) => s.result.latencyP999Ms))),
        cpuMicrosPerRequest: spread(finite(own.map((s) => s.result.serverCpuMicrosPerRequest))),
        cpuRatioToJose: spread(roundRatios(atLoad, id, `${variant.framework}/jose`, cpuEfficiency)),
        ...(offered.length === 0
          ? {}
          : { offeredPerSecond: spread(offered), unanswered: own.reduce((sum, s) => sum + (s.result.unanswered ?? 0), 0) }),
        failures: own.reduce((sum, s) => sum + s.result.failures, 0),
      });
    }
  }
  return out;
}

/** Goals of an earlier issue for the guard, as ratios to jose-only in the same framework. */
export const GUARD_GOALS: Readonly<Record<string, number>> = {
  memory: 0.95,
  redis: 0.88,
  sqlite: 0.85,
  mariadb: 0.7,
  postgres: 0.65,
};

/** Issue 24's goals: sessauth's guard over the hand-written "jose + one read" on the same store. */
export const HAND_GOALS: Readonly<Record<string, number>> = {
  memory: 1.0,
  sqlite: 1.0,
  redis: 1.2,
  mariadb: 1.5,
  postgres: 1.5,
};

/**
 * The goals that can be judged from the samples present (in Express and Fastify, and against the
 * peers), at each load: throughput ratios at saturation, p99 ratios at a paced load.
 */
export function comparisons(samples: readonly Sample[]): Comparison[] {
  const out: Comparison[] = [];
  const loads = loadsOf(samples);
  const primary = loads.find((l) => l.startsWith('saturated-'));
  for (const load of loads) {
    const atLoad = samples.filter((s) => s.load === load);
    const present = new Set(atLoad.map((s) => s.variant));
    const paced = load.startsWith('paced-');
    const metric: Comparison['metric'] = paced ? 'p99' : 'req/s';
    const add = (name: string, numerator: string, denominator: string, goal: number | undefined) => {
      if (!present.has(numerator) || !present.has(denominator)) return;
      const ratio = spread(roundRatios(atLoad, numerator, denominator, paced ? p99 : rate));
      const cpuRatio = spread(roundRatios(atLoad, numerator, denominator, cpuEfficiency));
      const met = goal === undefined ? undefined : paced ? ratio.median <= goal : ratio.median >= goal;
      out.push({ name, load, metric, numerator, denominator, ratio, cpuRatio, goal, met });
    };
    for (const framework of ['express', 'fastify', 'koa', 'hono'] as const) {
      const judged = framework === 'express' || framework === 'fastify';
      for (const store of Object.keys(GUARD_GOALS)) {
        const sessauth = `${framework}/sessauth-${store}`;
        if (paced) {
          // Issue 24: the guard's p99 at a load it can carry, no worse than the hand-written guard's.
          add(`${framework}: sessauth ${store} / hand-written jose + one read`, sessauth, `${framework}/hand-${store}`, 1.0);
          continue;
        }
        if (load === primary)
          add(`${framework}: sessauth ${store} / jose only`, sessauth, `${framework}/jose`, judged ? GUARD_GOALS[store] : undefined);
        add(
          `${framework}: sessauth ${store} / hand-written jose + one read`,
          sessauth,
          `${framework}/hand-${store}`,
          judged ? HAND_GOALS[store] : undefined,
        );
      }
      for (const store of COALESCING_STORES) {
        add(
          `${framework}: sessauth ${store}, coalesced reads on / off`,
          `${framework}/sessauth-${store}`,
          `${framework}/sessauth-uncoalesced-${store}`,
          undefined,
        );
      }
    }
    if (load !== primary) continue;
    add('sessauth / better-auth getSession, SQLite', 'express/sessauth-sqlite', 'express/better-auth-sqlite', 3.5);
    add('sessauth / better-auth getSession, PostgreSQL', 'express/sessauth-postgres', 'express/better-auth-postgres', 3.5);
    add('sessauth / express-session + connect-redis', 'express/sessauth-redis', 'express/express-session-redis', 1.2);
  }
  return out;
}
