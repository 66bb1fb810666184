import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  spawnGateway,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.ts';

const auth = { authorization: `Bearer ${gatewayAdminKey}` };
// A client's own trace: the gateway's span is its child, and the upstream's parent is the gateway's.
const clientTrace = '0af7651916cd43dd8448eb211c80319c';
const clientSpan = 'b7ad6b7169203331';
const clientTraceparent = `00-${clientTrace}-${clientSpan}-01`;

interface Echo {
  headers: Record<string, string>;
  traceparents: string[];
}

async function echo(base: string, headers: Record<string, string> = {}): Promise<Echo> {
  const response = await fetch(`${base}/api/v2/echo`, { headers: { ...auth, ...headers } });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as Echo;
}

/** The gateway's server span above `spanId`: the call upstream sits under the handler's span, under the request's. */
async function serverSpanAbove(receiver: OtlpReceiver, spanId: string): Promise<ReceivedSpan> {
  for (let id = spanId, depth = 0; depth < 10; depth++) {
    const span = await receiver.waitForSpan(`${id} of the gateway`, (s) => s.spanId === id);
    if (span.kind === 2) return span;
    id = span.parentSpanId;
  }
  throw new Error(`no server span above ${spanId}`);
}

/** `00-<trace id>-<parent id>-<flags>`, split. */
function parse(traceparent: string | undefined): { traceId: string; parentId: string } {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(traceparent ?? '');
  assert.ok(match, `a W3C traceparent, not ${traceparent}`);
  return { traceId: match[1]!, parentId: match[2]! };
}

describe('versionary gateway with OpenTelemetry on: the trace crosses to the upstream', { timeout: 120_000 }, () => {
  let receiver: OtlpReceiver;
  let python: PythonUpstream;
  let gateway: TestGateway;
  before(async () => {
    receiver = await startOtlpReceiver();
    python = await startPythonUpstream();
    gateway = await spawnGateway({
      upstream: python.url,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_LOGS_EXPORTER: 'none',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    });
  });
  after(async () => {
    await gateway?.stop();
    await python?.stop();
    await receiver?.stop();
  });

  it("the upstream receives one traceparent, of the gateway span's trace, whose parent is the gateway's call", async () => {
    const received = await echo(gateway.base);
    assert.equal(received.traceparents.length, 1, `one traceparent: ${JSON.stringify(received.traceparents)}`);
    const { traceId, parentId } = parse(received.traceparents[0]);
    const call = await receiver.waitForSpan('of the call upstream', (s) => s.spanId === parentId);
    assert.equal(call.kind, 3, 'a client span: the gateway calling the upstream');
    assert.equal(call.traceId, traceId);
    const server = await serverSpanAbove(receiver, call.parentSpanId);
    assert.equal(server.traceId, traceId, "the upstream's trace is the gateway span's");
    assert.equal(server.attributes['url.path'], '/api/v2/echo');
    assert.equal(server.resource['service.name'], 'versionary-gateway');
    // The gateway writes the lifecycle's facts on its own request span, as the service does.
    assert.equal(server.attributes['versionary.api.version'], 'v2');
    assert.equal(server.attributes['versionary.api.version_source'], 'path');
    assert.equal(server.attributes['versionary.deprecated'], false);
  });

  it("a client's traceparent becomes the gateway span's parent, and is not forwarded as it came", async () => {
    const received = await echo(gateway.base, { traceparent: clientTraceparent, tracestate: 'vendor=1' });
    assert.equal(received.traceparents.length, 1, `one traceparent: ${JSON.stringify(received.traceparents)}`);
    const { traceId, parentId } = parse(received.traceparents[0]);
    assert.equal(traceId, clientTrace, "the client's trace goes on");
    assert.notEqual(parentId, clientSpan, "the upstream's parent is the gateway's span, not the client's");
    const call = await receiver.waitForSpan('of the call upstream', (s) => s.spanId === parentId);
    const server = await serverSpanAbove(receiver, call.parentSpanId);
    assert.equal(server.traceId, clientTrace);
    assert.equal(server.parentSpanId, clientSpan, "the gateway's span is the client's child");
    assert.equal(received.headers.tracestate, 'vendor=1', 'the tracestate goes on with the trace');
  });
  it('a key in the query string is on no span of the gateway: the server span and the call upstream say REDACTED', async () => {
    const secret = 'vk_gatewayquery01.GATEWAYQUERYSECRET';
    const response = await fetch(`${gateway.base}/api/v2/echo?api_key=${secret}&n=1`, { headers: auth });
    assert.equal(response.status, 200, await response.clone().text());
    const received = (await response.json()) as Echo;
    const { parentId } = parse(received.traceparents[0]);
    const call = await receiver.waitForSpan('of the call upstream', (s) => s.spanId === parentId);
    assert.match(
      String(call.attributes['url.full']),
      /^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/echo\?api_key=REDACTED&n=1$/,
    );
    assert.equal(call.attributes['url.query'], '?api_key=REDACTED&n=1');
    const server = await serverSpanAbove(receiver, call.parentSpanId);
    assert.equal(server.attributes['url.path'], '/api/v2/echo?api_key=REDACTED&n=1');
    assert.ok(!receiver.traceBodies().join('\n').includes('GATEWAYQUERYSECRET'), 'no exported span holds the key');
  });
});

describe('versionary gateway with OpenTelemetry off', { timeout: 60_000 }, () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await startTestGateway({ upstream: python.url });
  });
  after(async () => {
    await gateway?.stop();
    await python?.stop();
  });

  it("passes a client's traceparent and tracestate through unchanged", async () => {
    const received = await echo(gateway.base, { traceparent: clientTraceparent, tracestate: 'vendor=1' });
    assert.deepEqual(received.traceparents, [clientTraceparent]);
    assert.equal(received.headers.tracestate, 'vendor=1');
  });
});
