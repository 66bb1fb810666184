import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { createRequestSeries, type RequestSeries } from './request-series.ts';

/** A gauge read when Prometheus scrapes: one value, or one per label set. */
interface CollectedGauge {
  name: string;
  help: string;
  labelNames?: string[];
  collect(): number | Array<{ labels: Record<string, string>; value: number }>;
}

/** The service's Prometheus metrics, on a registry of its own (never the global one). */
export interface ServiceMetrics {
  registry: Registry;
  /** `versionary_http_requests_total` and `versionary_http_request_duration_seconds`, kept in arrays. */
  requests: RequestSeries;
  deprecatedCalls: Counter<'version'>;
  removedCalls: Counter<'version'>;
  rateLimitRejections: Counter<'policy'>;
  /** Deprecated calls by version and client (at most {@link maxClientLabels} clients, then `other`). */
  deprecatedClientCalls: Counter<'version' | 'client'>;
  /** Calls a rule answered instead of the handler, by its decision (`removed`, `brownout`, …). */
  refusedCalls: Counter<'decision'>;
  /**
   * Plug a gauge in: its value is read at each scrape, so the owner keeps no timer and no
   * reference to prom-client. The notice outbox registers `versionary_notice_outbox_depth` here.
   */
  registerGauge(gauge: CollectedGauge): void;
  /** Plug in a counter whose total the owner keeps (`…_total`); read at each scrape. */
  registerCounter(counter: CollectedGauge): void;
}

/**
 * Distinct clients one instance names in `versionary_deprecated_client_calls_total`; calls of any
 * further client count as `other`, so that a flood of new keys cannot grow the series without end.
 */
export const maxClientLabels = 100;

/** Create the metrics registry with Node's default process metrics and the service's own. */
export function createServiceMetrics(): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    requests: createRequestSeries(registry),
    deprecatedCalls: counter(
      'versionary_deprecated_calls_total',
      'Calls answered with a Deprecation header, by API version.',
      ['version'],
    ),
    removedCalls: counter(
      'versionary_removed_calls_total',
      'Calls refused because their version or endpoint is past its sunset (410), by API version.',
      ['version'],
    ),
    rateLimitRejections: counter(
      'versionary_rate_limit_rejections_total',
      'Requests refused with 429 by the rate limiter, by policy.',
      ['policy'],
    ),
    deprecatedClientCalls: counter(
      'versionary_deprecated_client_calls_total',
      `Calls answered with a Deprecation header, by API version and client (the first ${maxClientLabels} clients, then "other"; "anonymous" when no client is identified).`,
      ['version', 'client'],
    ),
    refusedCalls: counter(
      'versionary_refused_calls_total',
      'Calls a rule answered instead of the handler, by decision: removed, brownout, closed_to_new_clients, rate_limited.',
      ['decision'],
    ),
    registerGauge: collected('gauge'),
    registerCounter: collected('counter'),
  };
}
