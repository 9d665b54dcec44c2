import type { BenchResults } from '../results.js';
import type { Spread } from '../stats.js';

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const r = (v: number) => v.toFixed(2);
const range = (s: Spread, f: (v: number) => string) => `${f(s.median)} (${f(s.min)}-${f(s.max)})`;
const verdict = (met: boolean | undefined) => (met === undefined ? '' : met ? 'met' : '**missed**');

/** The results as the Markdown the README quotes: header, guard table, goals, other operations. */
export function toMarkdown(results: BenchResults): string {
  const { machine, settings, guard } = results;
  const lines: string[] = [];
  lines.push('# sessauth benchmark results', '');
  lines.push(
    `${machine.date} · ${machine.nproc} × ${machine.cpuModel} · ${machine.memoryGiB} GiB · Node ${machine.node} · ${machine.platform}`,
    `Load average at start ${machine.loadAverage.join(' / ')}, at end ${results.loadAverageAtEnd.join(' / ')} (a shared machine: read the ratios, not the absolute rates).`,
    `Load: ${settings.generator}, ${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per variant; ` +
      `${settings.rounds} interleaved rounds (every variant once per round, each in its own fresh process); ratios are taken within a round. ` +
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
  lines.push(
    'Ratios are to the jose-only route of the same framework, taken within each round. "CPU" is the server',
    "process's own CPU time per request (threads included; not the database server's): the steadiest measure on a",
    'shared machine, and the ratio a server with a core of its own would see (for in-process stores).',
    '',
  );
  lines.push(
    '| framework | route | req/s median (min-max) | req/s ratio to jose-only: median (min-max) | server CPU µs/request | CPU ratio to jose-only | p99 ms |',
  );
  lines.push('|---|---|--:|--:|--:|--:|--:|');
  for (const s of guard.summaries) {
    lines.push(
      `| ${s.framework} | ${describeRoute(s.route)} | ${range(s.requestsPerSecond, n)} | ${range(s.ratioToJose, r)} | ${n(s.cpuMicrosPerRequest.median)} | ${range(s.cpuRatioToJose, r)} | ${r(s.latencyP99Ms.median)}${s.failures > 0 ? ` (${s.failures} failed)` : ''} |`,
    );
  }
  lines.push('', '## Goals and side-by-side ratios (within each round)', '');
  lines.push('The verdict reads the req/s ratio, as the issue states its goals; the CPU ratio beside it is the steadier witness.', '');
  lines.push('| comparison | req/s ratio median (min-max) | CPU ratio median (min-max) | goal | verdict |', '|---|--:|--:|--:|---|');
  for (const c of guard.comparisons) {
    lines.push(`| ${c.name} | ${range(c.ratio, r)} | ${range(c.cpuRatio, r)} | ${c.goal === undefined ? '' : `>= ${c.goal}`} | ${verdict(c.met)} |`);
  }
  if (results.operations.length > 0) {
    lines.push('', '## Other operations', '');
    lines.push('| operation | store | median (min-max) | target | verdict | how |', '|---|---|--:|--:|---|---|');
    for (const o of results.operations) {
      const f = o.unit === 'x' ? r : n;
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
      'better-auth': 'better-auth `getSession`',
      'express-session': 'express-session + connect-redis',
    }[kind] ?? kind;
  return `${label}, ${store}`;
}
