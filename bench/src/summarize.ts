import type { Sample } from './run-matrix.js';
import { spread, type Spread } from './stats.js';
import { parseVariant, type Framework } from './variants.js';

export interface VariantSummary {
  readonly variant: string;
  readonly framework: Framework;
  readonly route: string;
  readonly requestsPerSecond: Spread;
  /** To the jose-only route of the same framework, one ratio per round. */
  readonly ratioToJose: Spread;
  readonly latencyP99Ms: Spread;
  /** The server process's CPU time per request, µs. */
  readonly cpuMicrosPerRequest: Spread;
  /** jose-only's CPU per request over this variant's, per round: the throughput ratio on a CPU of its own. */
  readonly cpuRatioToJose: Spread;
  readonly failures: number;
}

/** A ratio of two variants taken within each round. */
export interface Comparison {
  readonly name: string;
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
/** Requests per CPU-second of the server: higher is better, like a rate. */
const cpuEfficiency: Metric = (s) => 1e6 / (s.result.serverCpuMicrosPerRequest ?? Number.NaN);

const byRound = (samples: readonly Sample[], variant: string, metric: Metric) =>
  new Map(samples.filter((s) => s.variant === variant).map((s) => [s.round, metric(s)]));

/** Per-round ratios of `a` to `b` (rounds where both ran). */
export function roundRatios(samples: readonly Sample[], a: string, b: string, metric: Metric = rate): number[] {
  const left = byRound(samples, a, metric);
  const right = byRound(samples, b, metric);
  return [...left]
    .filter(([round]) => right.has(round))
    .map(([round, value]) => value / right.get(round)!)
    .filter(Number.isFinite);
}

export function summarize(samples: readonly Sample[]): VariantSummary[] {
  const ids = [...new Set(samples.map((s) => s.variant))];
  return ids.map((id) => {
    const variant = parseVariant(id);
    const own = samples.filter((s) => s.variant === id);
    return {
      variant: id,
      framework: variant.framework,
      route: id.slice(id.indexOf('/') + 1),
      requestsPerSecond: spread(own.map((s) => s.result.requestsPerSecond)),
      ratioToJose: spread(roundRatios(samples, id, `${variant.framework}/jose`)),
      latencyP99Ms: spread(own.map((s) => s.result.latencyP99Ms)),
      cpuMicrosPerRequest: spread(own.map((s) => s.result.serverCpuMicrosPerRequest ?? Number.NaN).filter(Number.isFinite)),
      cpuRatioToJose: spread(roundRatios(samples, id, `${variant.framework}/jose`, cpuEfficiency)),
      failures: own.reduce((sum, s) => sum + s.result.failures, 0),
    };
  });
}

/** The goals for the guard, as ratios to jose-only in the same framework. */
export const GUARD_GOALS: Readonly<Record<string, number>> = {
  memory: 0.95,
  redis: 0.88,
  sqlite: 0.85,
  mariadb: 0.7,
  postgres: 0.65,
};

/** The goals that can be judged from the samples present (in Express and Fastify, and against the peers). */
export function comparisons(samples: readonly Sample[]): Comparison[] {
  const present = new Set(samples.map((s) => s.variant));
  const out: Comparison[] = [];
  const add = (name: string, numerator: string, denominator: string, goal: number | undefined) => {
    if (!present.has(numerator) || !present.has(denominator)) return;
    const ratio = spread(roundRatios(samples, numerator, denominator));
    const cpuRatio = spread(roundRatios(samples, numerator, denominator, cpuEfficiency));
    out.push({ name, numerator, denominator, ratio, cpuRatio, goal, met: goal === undefined ? undefined : ratio.median >= goal });
  };
  for (const framework of ['express', 'fastify', 'koa', 'hono'] as const) {
    for (const [store, goal] of Object.entries(GUARD_GOALS)) {
      const judged = framework === 'express' || framework === 'fastify';
      add(`${framework}: sessauth ${store} / jose only`, `${framework}/sessauth-${store}`, `${framework}/jose`, judged ? goal : undefined);
      add(
        `${framework}: sessauth ${store} / hand-written jose + one read`,
        `${framework}/sessauth-${store}`,
        `${framework}/hand-${store}`,
        undefined,
      );
    }
  }
  add('sessauth / better-auth getSession, SQLite', 'express/sessauth-sqlite', 'express/better-auth-sqlite', 3.5);
  add('sessauth / better-auth getSession, PostgreSQL', 'express/sessauth-postgres', 'express/better-auth-postgres', 3.5);
  add('sessauth / express-session + connect-redis', 'express/sessauth-redis', 'express/express-session-redis', 1.2);
  return out;
}
