import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** A gauge read when Prometheus scrapes: one value, or one per label set. */
export interface CollectedGauge {
  name: string;
  help: string;
  labelNames?: string[];
  collect(): number | Array<{ labels: Record<string, string>; value: number }>;
}

/** The service's Prometheus metrics, on a registry of its own (never the global one). */
export interface ServiceMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'version' | 'status'>;
  duration: Histogram<'method' | 'route' | 'version' | 'status'>;
  deprecatedCalls: Counter<'version'>;
  removedCalls: Counter<'version'>;
  rateLimitRejections: Counter<'policy'>;
  /**
   * Plug a gauge in: its value is read at each scrape, so the owner keeps no timer and no
   * reference to prom-client. The notice outbox registers `versionary_notice_outbox_depth` here.
   */
  registerGauge(gauge: CollectedGauge): void;
  /** Plug in a counter whose total the owner keeps (`…_total`); read at each scrape. */
  registerCounter(counter: CollectedGauge): void;
}

/** Create the metrics registry with Node's default process metrics and the service's own. */
export function createServiceMetrics(): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'version', 'status'] as const;
  const collected = (kind: 'gauge' | 'counter') => (spec: CollectedGauge) => {
    // A counter's value only grows; prom-client's Counter cannot be set, so the owner's total is
    // reported through a Gauge whose type line says counter.
    const metric = new Gauge({
      name: spec.name,
      help: spec.help,
      labelNames: spec.labelNames ?? [],
      registers: [registry],
      collect() {
        const value = spec.collect();
        if (typeof value === 'number') return void this.set(value);
        this.reset();
        for (const v of value) this.set(v.labels, v.value);
      },
    });
    if (kind === 'counter') (metric as unknown as { type: string }).type = 'counter';
  };
  return {
    registry,
    requests: new Counter({
      name: 'versionary_http_requests_total',
      help: 'HTTP requests answered, by method, route template, API version and status.',
      labelNames,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'versionary_http_request_duration_seconds',
      help: 'Time from receiving a request to finishing its response.',
      labelNames,
      registers: [registry],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
    deprecatedCalls: new Counter({
      name: 'versionary_deprecated_calls_total',
      help: 'Calls answered with a Deprecation header, by API version.',
      labelNames: ['version'],
      registers: [registry],
    }),
    removedCalls: new Counter({
      name: 'versionary_removed_calls_total',
      help: 'Calls refused because their version or endpoint is past its sunset (410), by API version.',
      labelNames: ['version'],
      registers: [registry],
    }),
    rateLimitRejections: new Counter({
      name: 'versionary_rate_limit_rejections_total',
      help: 'Requests refused with 429 by the rate limiter, by policy.',
      labelNames: ['policy'],
      registers: [registry],
    }),
    registerGauge: collected('gauge'),
    registerCounter: collected('counter'),
  };
}
