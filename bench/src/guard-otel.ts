// CPU time per call of the guard, in process, without and with @sessauth/opentelemetry:
//   node --import tsx --conditions=@sessauth/source src/guard-otel.ts [--rounds N] [--seconds S]
// Four engines on the memory store, slices interleaved (guard-cpu.ts's method):
// - no instrumentation (the default: the option absent);
// - the instrumentation on the OpenTelemetry API alone, no SDK registered (every span a no-op);
// - the SDK tracing, every span sampled and batched to an exporter that drops them, no metrics reader;
// - the SDK tracing and metrics, as a host exporting both (the reader is never collected, so the
//   aggregation's cost is in the figure and no export's).
// The async-hooks context manager is registered for all four, as the Node SDK does.
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { parseArgs } from 'node:util';
import { sessauthOpenTelemetry } from '@sessauth/opentelemetry';
import { cpuPerCall, type Once } from './cpu-per-call.js';
import { guardOf } from './memory-guard.js';
import { spread } from './stats.js';

const CALLERS = 32;
const { values } = parseArgs({ options: { rounds: { type: 'string' }, seconds: { type: 'string' } } });
const rounds = Number(values.rounds ?? 10);
const seconds = Number(values.seconds ?? 1);

/** Accepts every batch and keeps nothing: the cost measured is the SDK's, not a network's. */
const droppingExporter: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => undefined,
};

/** A reader nobody collects: measurements are aggregated in memory, never exported. */
class IdleReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const core = await import('@sessauth/core');
const tracing = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(droppingExporter)] });
const noMetrics = new MeterProvider();
const meterProvider = new MeterProvider({ readers: [new IdleReader()] });

const targets: [string, Once][] = [
  ['guard, no instrumentation', await guardOf(core)],
  ['guard + otel, API only (no SDK)', await guardOf(core, sessauthOpenTelemetry())],
  ['guard + otel, SDK traces', await guardOf(core, sessauthOpenTelemetry({ tracerProvider: tracing, meterProvider: noMetrics }))],
  ['guard + otel, SDK traces + metrics', await guardOf(core, sessauthOpenTelemetry({ tracerProvider: tracing, meterProvider }))],
];
for (const [, once] of targets) await cpuPerCall(once, seconds, CALLERS);
const results = new Map<string, number[]>(targets.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const [name, once] of round % 2 === 0 ? targets : [...targets].reverse()) results.get(name)!.push(await cpuPerCall(once, seconds, CALLERS));
}
const plain = results.get('guard, no instrumentation')!;
console.log(`CPU per call, ${rounds} rounds × ${seconds} s, ${CALLERS} in flight; ratio = this one's CPU per call / the plain guard's (per round)`);
for (const [name, cpu] of results) {
  const s = spread(cpu);
  const ratio = spread(cpu.map((c, i) => c / plain[i]!));
  console.log(
    `${name.padEnd(40)} ${s.median.toFixed(1).padStart(7)} µs (${s.min.toFixed(1)}-${s.max.toFixed(1)})   ratio ${ratio.median.toFixed(2)} (${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)})`,
  );
}
await tracing.shutdown();
await meterProvider.shutdown();
