import type { Registry } from 'prom-client';

type RequestLabels = Readonly<Record<'method' | 'route' | 'version' | 'status', string>>;

/**
 * Requests answered and their durations, per (method, route, version, status), kept in plain
 * arrays: a request adds to its series' slots, and prom-client reads them only when Prometheus
 * scrapes. prom-client's own `Counter` and `Histogram` hash the label set and check it on every
 * `inc` and `observe`, which was a measurable part of each request.
 */
export interface RequestSeries {
  /** The slot of a label set, made on first use (series are few and bounded: routes are templates). */
  slot(id: string, labels: () => RequestLabels): number;
  /** Count one request of a series, with its duration in seconds. */
  observe(slot: number, seconds: number): void;
}

const requestsName = 'versionary_http_requests_total';
const durationName = 'versionary_http_request_duration_seconds';
const buckets = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The series of {@link RequestSeries}, registered on `registry` as a counter and a histogram, as prom-client would show them. */
export function createRequestSeries(registry: Registry): RequestSeries {
  const slots = new Map<string, number>();
  const labels: RequestLabels[] = [];
  let counts = new Float64Array(16);
  let sums = new Float64Array(16);
  // One row of bucket counts per series (not cumulative; summed at scrape).
  let hits = new Float64Array(16 * buckets.length);
  const grow = () => {
    const size = counts.length * 2;
    counts = copied(counts, size);
    sums = copied(sums, size);
    hits = copied(hits, size * buckets.length);
  };
  const counter = collected(
    {
      name: requestsName,
      help: 'HTTP requests answered, by method, route template, API version and status.',
      type: 'counter',
    },
    () => labels.map((l, i) => ({ labels: l, value: counts[i]! })),
  );
  const histogram = collected(
    { name: durationName, help: 'Time from receiving a request to finishing its response.', type: 'histogram' },
    () =>
      labels.flatMap((l, i) => {
        let cumulative = 0;
        const rows = buckets.map((le, b) => {
          cumulative += hits[i * buckets.length + b]!;
          return { labels: { le, ...l }, value: cumulative, metricName: `${durationName}_bucket` };
        });
        return [
          ...rows,
          { labels: { le: '+Inf', ...l }, value: counts[i]!, metricName: `${durationName}_bucket` },
          { labels: l, value: sums[i]!, metricName: `${durationName}_sum` },
          { labels: l, value: counts[i]!, metricName: `${durationName}_count` },
        ];
      }),
  );
  registry.registerMetric(counter as never);
  registry.registerMetric(histogram as never);
  return {
    slot(id, make) {
      let slot = slots.get(id);
      if (slot !== undefined) return slot;
      slot = labels.length;
      if (slot === counts.length) grow();
      labels.push(make());
      slots.set(id, slot);
      return slot;
    },
    observe(slot, seconds) {
      counts[slot]!++;
      sums[slot]! += seconds;
      let b = 0;
      while (b < buckets.length && seconds > buckets[b]!) b++;
      // Above the last bound: counted only in +Inf, which is the series' count.
      if (b < buckets.length) hits[slot * buckets.length + b]!++;
    },
  };
}

function copied(from: Float64Array, size: number): Float64Array<ArrayBuffer> {
  const to = new Float64Array(size);
  to.set(from);
  return to;
}

/** A metric in prom-client's shape (what its registry asks of a metric), whose values are read at scrape time. */
function collected(meta: { name: string; help: string; type: 'counter' | 'histogram' }, values: () => unknown[]) {
  const described = { ...meta, aggregator: 'sum' };
  return { ...described, get: async () => ({ ...described, values: values() }), reset: () => undefined };
}
