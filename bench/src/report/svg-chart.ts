import type { Spread } from '../stats.js';
import type { VariantSummary } from '../summarize.js';

const SERIES = [
  { route: 'jose', label: 'jose verify only (the limit)', color: '#9e9e9e' },
  { route: 'sessauth-memory', label: 'sessauth, memory', color: '#1b9e77' },
  { route: 'sessauth-sqlite', label: 'sessauth, SQLite', color: '#d95f02' },
  { route: 'sessauth-postgres', label: 'sessauth, PostgreSQL', color: '#7570b3' },
  { route: 'sessauth-mariadb', label: 'sessauth, MariaDB', color: '#e7298a' },
  { route: 'sessauth-redis', label: 'sessauth, Redis', color: '#66a61e' },
] as const;

const FRAMEWORK_LABEL: Readonly<Record<string, string>> = { express: 'Express 5', fastify: 'Fastify 5', koa: 'Koa', hono: 'Hono (Fetch)' };

const W = 920;
const H = 440;
const PLOT = { left: 70, right: 250, top: 50, bottom: 60 };

const ms = (v: number) => (Number.isNaN(v) ? '?' : v.toFixed(2));
const latencies = (s: VariantSummary) =>
  `p50 ${ms(s.latencyP50Ms.median)} / p99 ${ms(s.latencyP99Ms.median)} / p99.9 ${ms(s.latencyP999Ms.median)} ms`;

/** What a chart draws per variant. */
interface ChartMetric {
  readonly value: (s: VariantSummary) => Spread;
  readonly axisLabel: string;
  readonly tooltip: (s: VariantSummary) => string;
  /** A logarithmic axis (latencies span decades between a quiet and an overloaded variant). */
  readonly log: boolean;
}

/**
 * Grouped bars: req/s (median of the rounds) at the first saturated load per framework and
 * store, a whisker for the rounds' min-max, and a black tick where the hand-written "jose +
 * one read" on the same store landed; each bar's tooltip holds its latencies too.
 */
export function guardChart(summaries: readonly VariantSummary[], title: string): string {
  const primary = summaries.find((s) => s.load.startsWith('saturated-'))?.load;
  return groupedBars(
    summaries.filter((s) => s.load === primary),
    title,
    {
      value: (s) => s.requestsPerSecond,
      axisLabel: 'requests per second (median of rounds)',
      tooltip: (s) =>
        `${s.variant}: ${Math.round(s.requestsPerSecond.median)} req/s (${Math.round(s.requestsPerSecond.min)}-${Math.round(s.requestsPerSecond.max)}), ratio to jose ${s.ratioToJose.median.toFixed(2)}, ${latencies(s)}`,
      log: false,
    },
  );
}

/** The same bars for the p99 latency at a paced load (`load`), lower is better, on a log axis. */
export function latencyChart(summaries: readonly VariantSummary[], load: string, title: string): string {
  return groupedBars(
    summaries.filter((s) => s.load === load),
    title,
    {
      value: (s) => s.latencyP99Ms,
      axisLabel: 'p99 latency, ms (median of rounds, log scale)',
      tooltip: (s) => `${s.variant}: ${latencies(s)} at ${Math.round(s.offeredPerSecond?.median ?? Number.NaN)} req/s offered`,
      log: true,
    },
  );
}

/** Plain SVG, no chart library. */
function groupedBars(summaries: readonly VariantSummary[], title: string, metric: ChartMetric): string {
  const find = (framework: string, route: string) => summaries.find((s) => s.framework === framework && s.route === route);
  const frameworks = [...new Set(summaries.map((s) => s.framework))];
  const shown = summaries.filter((s) => s.route === 'jose' || s.route.startsWith('sessauth') || s.route.startsWith('hand'));
  const values = shown.flatMap((s) => [metric.value(s).max, metric.value(s).min]).filter((v) => Number.isFinite(v) && v > 0);
  const plotW = W - PLOT.left - PLOT.right;
  const plotH = H - PLOT.top - PLOT.bottom;
  const yMax = metric.log ? 10 ** Math.ceil(Math.log10(Math.max(1, ...values))) : niceCeiling(Math.max(1, ...values));
  const yMin = metric.log ? 10 ** Math.floor(Math.log10(Math.min(yMax / 10, ...values))) : 0;
  const y = metric.log
    ? (v: number) => PLOT.top + plotH - ((Math.log10(Math.max(v, yMin)) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * plotH
    : (v: number) => PLOT.top + plotH - (v / yMax) * plotH;
  const ticks = metric.log
    ? Array.from({ length: Math.round(Math.log10(yMax / yMin)) + 1 }, (_, i) => yMin * 10 ** i)
    : Array.from({ length: 6 }, (_, i) => (yMax * i) / 5);
  const groupW = plotW / Math.max(1, frameworks.length);
  const barW = (groupW * 0.8) / SERIES.length;
  const parts: string[] = [];
  parts.push(`<text x="${W / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escape(title)}</text>`);
  for (const v of ticks) {
    const label = v >= 1 ? Math.round(v).toLocaleString('en-US') : String(v);
    parts.push(`<line x1="${PLOT.left}" x2="${PLOT.left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#e0e0e0"/>`);
    parts.push(`<text x="${PLOT.left - 8}" y="${y(v) + 4}" text-anchor="end" font-size="11">${label}</text>`);
  }
  parts.push(
    `<text x="18" y="${PLOT.top + plotH / 2}" transform="rotate(-90 18 ${PLOT.top + plotH / 2})" text-anchor="middle" font-size="12">${escape(metric.axisLabel)}</text>`,
  );
  frameworks.forEach((framework, g) => {
    const x0 = PLOT.left + g * groupW + groupW * 0.1;
    SERIES.forEach((series, k) => {
      const s = find(framework, series.route);
      if (s === undefined) return;
      const x = x0 + k * barW;
      const v = metric.value(s);
      if (!Number.isFinite(v.median)) return;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y(v.median).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${(y(yMin) - y(v.median)).toFixed(1)}" fill="${series.color}"><title>${escape(metric.tooltip(s))}</title></rect>`,
      );
      const cx = x + (barW - 2) / 2;
      parts.push(`<line x1="${cx.toFixed(1)}" x2="${cx.toFixed(1)}" y1="${y(v.min).toFixed(1)}" y2="${y(v.max).toFixed(1)}" stroke="#333"/>`);
      const hand = series.route.startsWith('sessauth-') ? find(framework, series.route.replace('sessauth-', 'hand-')) : undefined;
      if (hand !== undefined) {
        const hy = y(metric.value(hand).median).toFixed(1);
        parts.push(`<line x1="${x.toFixed(1)}" x2="${(x + barW - 2).toFixed(1)}" y1="${hy}" y2="${hy}" stroke="#000" stroke-width="2.5"/>`);
      }
    });
    parts.push(
      `<text x="${(x0 + (SERIES.length * barW) / 2).toFixed(1)}" y="${H - PLOT.bottom + 20}" text-anchor="middle" font-size="13">${escape(FRAMEWORK_LABEL[framework] ?? framework)}</text>`,
    );
  });
  parts.push(`<line x1="${PLOT.left}" x2="${PLOT.left + plotW}" y1="${y(yMin)}" y2="${y(yMin)}" stroke="#333"/>`);
  const lx = W - PLOT.right + 20;
  SERIES.forEach((series, k) => {
    const ly = PLOT.top + 10 + k * 22;
    parts.push(`<rect x="${lx}" y="${ly - 10}" width="14" height="14" fill="${series.color}"/>`);
    parts.push(`<text x="${lx + 20}" y="${ly + 2}" font-size="12">${escape(series.label)}</text>`);
  });
  const ly = PLOT.top + 10 + SERIES.length * 22;
  parts.push(`<line x1="${lx}" x2="${lx + 14}" y1="${ly - 3}" y2="${ly - 3}" stroke="#000" stroke-width="2.5"/>`);
  parts.push(`<text x="${lx + 20}" y="${ly + 2}" font-size="12">hand-written jose + one read</text>`);
  parts.push(`<line x1="${lx + 7}" x2="${lx + 7}" y1="${ly + 12}" y2="${ly + 26}" stroke="#333"/>`);
  parts.push(`<text x="${lx + 20}" y="${ly + 24}" font-size="12">min-max of the rounds</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif">\n<rect width="${W}" height="${H}" fill="#fff"/>\n${parts.join('\n')}\n</svg>\n`;
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
