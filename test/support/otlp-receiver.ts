import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** An attribute's value as OTLP/JSON writes it (`AnyValue`). */
interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
}

interface KeyValue {
  key: string;
  value?: AnyValue;
}

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: KeyValue[];
  status?: { code?: number };
}

/** One span as the receiver keeps it: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  /** The resource's attributes (`service.name`…). */
  resource: Record<string, unknown>;
}

/** A metric data point's name and attributes, as received. */
export interface ReceivedMetric {
  name: string;
  points: Array<{ attributes: Record<string, unknown>; value: unknown }>;
}

/** A local OTLP/HTTP receiver: what `OTEL_EXPORTER_OTLP_ENDPOINT` points the process under test at. */
export interface OtlpReceiver {
  /** The endpoint, `http://127.0.0.1:<port>` (the exporters add `/v1/traces`, `/v1/metrics`). */
  endpoint: string;
  spans(): ReceivedSpan[];
  metrics(): ReceivedMetric[];
  /** The bodies of the `/v1/traces` exports as received, in OTLP/JSON: spans, events, statuses and resources, every byte. */
  traceBodies(): string[];
  /** Requests per path and content type, protobuf ones included (counted, not decoded). */
  requests(): Array<{ path: string; contentType: string }>;
  /**
   * Resolve with the first span that matches, waiting for exports until `timeoutMs`; past it,
   * reject, naming what was looked for and listing the spans that did arrive.
   */
  waitForSpan(what: string, match: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  stop(): Promise<void>;
}

/** Start the receiver on a free port of 127.0.0.1. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedMetric[] = [];
  const requests: Array<{ path: string; contentType: string }> = [];
  const traceBodies: string[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = (request.url ?? '/').split('?')[0]!;
      const contentType = String(request.headers['content-type'] ?? '');
      requests.push({ path, contentType });
      if (request.method !== 'POST' || !['/v1/traces', '/v1/metrics', '/v1/logs'].includes(path)) {
        response.writeHead(404).end();
        return;
      }
      if (contentType.startsWith('application/json')) {
        const text = body.toString('utf8');
        const parsed = JSON.parse(text) as Record<string, unknown>;
        if (path === '/v1/traces') traceBodies.push(text);
        if (path === '/v1/traces') spans.push(...spansOf(parsed));
        if (path === '/v1/metrics') metrics.push(...metricsOf(parsed));
      }
      // An empty partial-success answer, in the request's own encoding: the exporter counts it a success.
      response.writeHead(200, {
        'content-type': contentType.startsWith('application/json') ? contentType : 'application/x-protobuf',
      });
      response.end(contentType.startsWith('application/json') ? '{}' : '');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    metrics: () => [...metrics],
    traceBodies: () => [...traceBodies],
    requests: () => [...requests],
    waitForSpan: async (what, match, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.find(match);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(
            `no span ${what} within ${timeoutMs} ms; received ${spans.length}:\n` +
              spans.map((s) => `  ${s.name} ${JSON.stringify(s.attributes)}`).join('\n'),
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

function spansOf(body: Record<string, unknown>): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  const resourceSpans = (body.resourceSpans ?? []) as Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{ spans?: JsonSpan[] }>;
  }>;
  for (const { resource, scopeSpans } of resourceSpans) {
    const resourceAttributes = attributesOf(resource?.attributes);
    for (const scope of scopeSpans ?? [])
      for (const span of scope.spans ?? [])
        out.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind ?? 0,
          attributes: attributesOf(span.attributes),
          resource: resourceAttributes,
        });
  }
  return out;
}

function metricsOf(body: Record<string, unknown>): ReceivedMetric[] {
  type Point = { attributes?: KeyValue[]; asInt?: string | number; asDouble?: number };
  type JsonMetric = { name: string; sum?: { dataPoints?: Point[] }; gauge?: { dataPoints?: Point[] } };
  const resourceMetrics = (body.resourceMetrics ?? []) as Array<{ scopeMetrics?: Array<{ metrics?: JsonMetric[] }> }>;
  return resourceMetrics.flatMap(({ scopeMetrics }) =>
    (scopeMetrics ?? []).flatMap(({ metrics }) =>
      (metrics ?? []).map((metric) => ({
        name: metric.name,
        points: (metric.sum?.dataPoints ?? metric.gauge?.dataPoints ?? []).map((point) => ({
          attributes: attributesOf(point.attributes),
          value: point.asInt !== undefined ? Number(point.asInt) : point.asDouble,
        })),
      })),
    ),
  );
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) out[key] = valueOf(value);
  return out;
}

function valueOf(value: AnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue) return attributesOf(value.kvlistValue.values);
  return undefined;
}
