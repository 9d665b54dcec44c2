import type { BenchResults } from '../results.js';
import { describeLoad } from '../load-points.js';
import type { Spread } from '../stats.js';
import type { VariantSummary } from '../summarize.js';

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const r = (v: number) => v.toFixed(2);
const range = (s: Spread, f: (v: number) => string) => `${f(s.median)} (${f(s.min)}-${f(s.max)})`;
const ms = (v: number) => (Number.isNaN(v) ? '?' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const percentiles = (s: VariantSummary) => `${ms(s.latencyP50Ms.median)} / ${ms(s.latencyP99Ms.median)} / ${ms(s.latencyP999Ms.median)}`;
const verdict = (met: boolean | undefined) => (met === undefined ? '' : met ? 'met' : '**missed**');

/** The results as the Markdown the README quotes: header, guard table, goals, other operations. */
export function toMarkdown(results: BenchResults): string {
  const { machine, settings, guard } = results;
  const lines: string[] = [];
  lines.push('# sessauth benchmark results', '');
  lines.push(
    `${machine.date} · ${machine.nproc} × ${machine.cpuModel} · ${machine.memoryGiB} GiB · Node ${machine.node} · ${machine.platform}`,
    `Load average at start ${machine.loadAverage.join(' / ')}, at end ${results.loadAverageAtEnd.join(' / ')} (a shared machine: read the ratios, not the absolute rates).`,
    `Load: ${settings.generator}, ${settings.connections} connections${settings.highConnections ? ` (and ${settings.highConnections})` : ''}` +
      `${settings.pacedFraction ? `, and the bench's own open-loop client at ${Math.round(settings.pacedFraction * 100)}% of jose-only's saturated rate over ${settings.connections} connections` : ''}; ` +
      `${settings.warmupSeconds} s warm-up per variant, ${settings.durationSeconds} s measured per variant and load; ` +
      `${settings.rounds} interleaved rounds (every variant once per load and round, each in its own process); ratios are taken within a round. ` +
      `${n(settings.seededSessions)} sessions seeded per store. Databases on the same machine (127.0.0.1).`,
    `Command: \`${settings.command}\``,
    ...(results.notes ?? []).map((note) => `Note: ${note}`),
    '',
    `Packages: ${Object.entries(results.packages)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    `Servers: ${
      Object.entries(results.servers)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }.`,
    '',
  );
  lines.push('## Guarded route `GET /me`', '');
  const loads = [...new Set(guard.summaries.map((s) => s.load))];
  const saturated = loads.filter((l) => l.startsWith('saturated-'));
  const [primary, high] = saturated;
  const at = (variant: string, load: string | undefined) => guard.summaries.find((s) => s.variant === variant && s.load === load);
  lines.push(
    `### At saturation (closed loop: ${describeLoad(primary ?? '')}${high === undefined ? '' : `, and ${high.slice(10)}`})`,
    '',
    'Ratios are to the jose-only route of the same framework at the same load, taken within each round. "CPU" is the server',
    "process's own CPU time per request (threads included; not the database server's): the steadiest measure on a",
    'shared machine, and the ratio a server with a core of its own would see (for in-process stores). Latencies are',
    "wrk's (medians of the rounds): at saturation they are mostly queueing, the wait a request meets when the server",
    'runs flat out.',
    '',
  );
  const highHead =
    high === undefined
      ? ''
      : ` req/s at ${high.slice(10)} conns | ratio to jose-only at ${high.slice(10)} | p50 / p99 / p99.9 ms at ${high.slice(10)} |`;
  lines.push(
    `| framework | route | req/s median (min-max) | req/s ratio to jose-only: median (min-max) | server CPU µs/request | CPU ratio to jose-only | p50 / p99 / p99.9 ms |${highHead}`,
  );
  lines.push(`|---|---|--:|--:|--:|--:|--:|${high === undefined ? '' : '--:|--:|--:|'}`);
  for (const s of guard.summaries.filter((x) => x.load === primary)) {
    const h = at(s.variant, high);
    const highCells =
      high === undefined ? '' : h === undefined ? ' | | |' : ` ${range(h.requestsPerSecond, n)} | ${range(h.ratioToJose, r)} | ${percentiles(h)} |`;
    lines.push(
      `| ${s.framework} | ${describeRoute(s.route)} | ${range(s.requestsPerSecond, n)} | ${range(s.ratioToJose, r)} | ${n(s.cpuMicrosPerRequest.median)} | ${range(s.cpuRatioToJose, r)} | ${percentiles(s)}${s.failures > 0 ? ` (${s.failures} failed)` : ''} |${highCells}`,
    );
  }
  for (const load of loads.filter((l) => l.startsWith('paced-'))) {
    lines.push('', `### At a ${describeLoad(load)}`, '');
    lines.push(
      "Open loop: requests arrive at a fixed rate (the same for every variant of a framework: this fraction of its jose-only route's",
      'rate at saturation in the same round), each timed from when it was due, so a stall delays the requests queued behind it and',
      'is counted (no coordinated omission). What a user feels at a load the server can carry. A variant that cannot carry the',
      'rate shows an answered rate below the offered one and latencies that grow with the run. "p99 / hand-written" is the',
      "ratio of sessauth's p99 to the hand-written guard's on the same store, per round (at most 1: no worse).",
      '',
    );
    lines.push(
      '| framework | route | offered req/s | answered req/s | server CPU µs/request | p50 ms | p99 ms median (min-max) | p99.9 ms | p99 / hand-written |',
      '|---|---|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const s of guard.summaries.filter((x) => x.load === load)) {
      const vsHand = guard.comparisons.find((c) => c.load === load && c.numerator === s.variant && c.denominator.includes('/hand-'));
      const unanswered = (s.unanswered ?? 0) > 0 ? ` (${n(s.unanswered!)} unanswered)` : '';
      lines.push(
        `| ${s.framework} | ${describeRoute(s.route)} | ${s.offeredPerSecond === undefined ? '' : n(s.offeredPerSecond.median)} | ${n(s.requestsPerSecond.median)}${unanswered} | ${n(s.cpuMicrosPerRequest.median)} | ${ms(s.latencyP50Ms.median)} | ${range(s.latencyP99Ms, ms)} | ${ms(s.latencyP999Ms.median)} | ${vsHand === undefined ? '' : range(vsHand.ratio, r)}${s.failures > 0 ? ` (${s.failures} failed)` : ''} |`,
      );
    }
  }
  lines.push('', '## Goals and side-by-side ratios (within each round)', '');
  lines.push(
    'At saturation the verdict reads the req/s ratio (higher is better), as the issues state their goals; at a fixed load it reads',
    'the p99 ratio (lower is better). The CPU ratio beside it is the steadier witness (denominator CPU per request / numerator, higher is better).',
    '',
  );
  lines.push(
    '| comparison | load | ratio of | ratio median (min-max) | CPU ratio median (min-max) | goal | verdict |',
    '|---|---|---|--:|--:|--:|---|',
  );
  for (const c of guard.comparisons) {
    const goal = c.goal === undefined ? '' : c.metric === 'p99' ? `<= ${c.goal}` : `>= ${c.goal}`;
    lines.push(`| ${c.name} | ${c.load} | ${c.metric} | ${range(c.ratio, r)} | ${range(c.cpuRatio, r)} | ${goal} | ${verdict(c.met)} |`);
  }
  if (results.operations.length > 0) {
    lines.push('', '## Other operations', '');
    lines.push('| operation | store | median (min-max) | target | verdict | how |', '|---|---|--:|--:|---|---|');
    for (const o of results.operations) {
      const f = o.unit === 'x' ? r : o.unit === 'µs' ? (v: number) => v.toFixed(1) : n;
      lines.push(`| ${o.operation} | ${o.store} | ${range(o.value, f)} ${o.unit} | ${o.target ?? ''} | ${verdict(o.met)} | ${o.detail} |`);
    }
  }
  lines.push('');
  return lines.join('\n');
}

function describeRoute(route: string): string {
  if (route === 'bare') return 'bare route (no auth)';
  if (route === 'jose') return 'jose verify only (the limit)';
  const dash = route.lastIndexOf('-');
  const kind = route.slice(0, dash);
  const store = route.slice(dash + 1);
  const label =
    {
      hand: 'hand-written jose + one read',
      sessauth: 'sessauth `requireAuth`',
      'sessauth-uncoalesced': 'sessauth `requireAuth`, coalesced reads off',
      'better-auth': 'better-auth `getSession`',
      'express-session': 'express-session + connect-redis',
    }[kind] ?? kind;
  return `${label}, ${store}`;
}
