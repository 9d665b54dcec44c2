import { type Attributes, context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * The OpenTelemetry SDK as a host sets it up, with its in-memory exporters in place of a
 * collector: spans are exported as each ends, metrics when `metrics()` flushes the reader.
 */
export interface TelemetryHarness {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** Every span exported so far. */
  spans(): ReadableSpan[];
  /** Every metric, cumulative since the start. */
  metrics(): Promise<MetricData[]>;
  shutdown(): Promise<void>;
}

/** Registers the async-hooks context manager (the one the Node SDK registers) for the tests of one file. */
export function useContextManager(): () => void {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  return () => {
    context.disable();
  };
}

export function createTelemetryHarness(): TelemetryHarness {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exported only when flushed: a periodic export in the middle of a test would change nothing
  // of the values, but an hour keeps the reader quiet.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000, exportTimeoutMillis: 30_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => spanExporter.getFinishedSpans(),
    async metrics() {
      await reader.forceFlush();
      const exported = metricExporter.getMetrics();
      const last = exported.at(-1);
      return last === undefined ? [] : last.scopeMetrics.flatMap((scope) => scope.metrics);
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

function matches(attributes: Attributes, wanted: Attributes): boolean {
  return Object.entries(wanted).every(([key, value]) => attributes[key] === value);
}

/** The sum of a counter's points whose attributes include `wanted`; 0 when it has none. */
export function counterValue(metrics: MetricData[], name: string, wanted: Attributes = {}): number {
  const metric = metrics.find((m) => m.descriptor.name === name);
  if (metric === undefined || metric.dataPointType !== DataPointType.SUM) return 0;
  return metric.dataPoints.filter((point) => matches(point.attributes, wanted)).reduce((sum, point) => sum + point.value, 0);
}

/** A histogram's count and sum over its points whose attributes include `wanted`. */
export function histogramValue(metrics: MetricData[], name: string, wanted: Attributes = {}): { count: number; sum: number; min: number } {
  const metric = metrics.find((m) => m.descriptor.name === name);
  const result = { count: 0, sum: 0, min: Number.POSITIVE_INFINITY };
  if (metric === undefined || metric.dataPointType !== DataPointType.HISTOGRAM) return result;
  for (const point of metric.dataPoints) {
    if (!matches(point.attributes, wanted)) continue;
    result.count += point.value.count;
    result.sum += point.value.sum ?? 0;
    result.min = Math.min(result.min, point.value.min ?? Number.POSITIVE_INFINITY);
  }
  return result;
}

/** Every text a collector would receive: span names, attribute keys and values, event names, status messages, metric point attributes. */
export function everyExportedText(spans: ReadableSpan[], metrics: MetricData[]): string[] {
  const texts: string[] = [];
  const addAttributes = (attributes: Attributes | undefined): void => {
    for (const [key, value] of Object.entries(attributes ?? {})) texts.push(key, JSON.stringify(value));
  };
  for (const span of spans) {
    texts.push(span.name, span.status.message ?? '');
    addAttributes(span.attributes);
    for (const event of span.events) {
      texts.push(event.name);
      addAttributes(event.attributes);
    }
    for (const link of span.links) addAttributes(link.attributes);
  }
  for (const metric of metrics) {
    texts.push(metric.descriptor.name, metric.descriptor.description);
    for (const point of metric.dataPoints) addAttributes(point.attributes);
  }
  return texts;
}
