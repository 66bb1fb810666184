import { metrics as metricsApi, trace } from '@opentelemetry/api';
import { metrics, node, tracing } from '@opentelemetry/sdk-node';
import { FastifyOtelInstrumentation } from '@fastify/otel';

/** A metric reader the test collects from when it wants to look. */
class CollectingReader extends metrics.MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One data point of a counter: its attributes and its value. */
export interface CounterPoint {
  attributes: Record<string, unknown>;
  value: number;
}

/** An OpenTelemetry SDK registered in this process, as a service's would be. */
export interface TestTelemetry {
  /** Every finished span so far. */
  spans(): tracing.ReadableSpan[];
  /** The request spans `@fastify/otel` made, in the order they ended. */
  requestSpans(): tracing.ReadableSpan[];
  /** The points of one counter, collected now. */
  counter(name: string): Promise<CounterPoint[]>;
  /** Unregister everything: the global API is back to its no-ops. */
  stop(): Promise<void>;
}

/**
 * Register a tracer provider (spans kept in memory), a meter provider (read on demand) and
 * `@fastify/otel`, which joins every Fastify app made from then on (`registerOnInitialization`)
 * and gives each request its span, as the products' SDK start does.
 */
export function startTestTelemetry(): TestTelemetry {
  const exporter = new tracing.InMemorySpanExporter();
  const tracerProvider = new node.NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] });
  tracerProvider.register();
  const reader = new CollectingReader();
  const meterProvider = new metrics.MeterProvider({ readers: [reader] });
  metricsApi.setGlobalMeterProvider(meterProvider);
  const instrumentation = new FastifyOtelInstrumentation({ registerOnInitialization: true });
  instrumentation.setTracerProvider(tracerProvider);
  instrumentation.enable();
  return {
    spans: () => exporter.getFinishedSpans(),
    requestSpans: () => exporter.getFinishedSpans().filter((s) => s.attributes['fastify.root'] === '@fastify/otel'),
    counter: async (name) => {
      const { resourceMetrics } = await reader.collect();
      const found = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).filter((m) => m.descriptor.name === name);
      return found.flatMap((m) =>
        m.dataPoints.map((p) => ({ attributes: { ...p.attributes }, value: p.value as number })),
      );
    },
    stop: async () => {
      instrumentation.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metricsApi.disable();
    },
  };
}
