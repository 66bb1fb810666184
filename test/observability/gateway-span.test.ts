import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';
import { startTestTelemetry, type TestTelemetry } from '../support/otel-sdk.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const admin = { authorization: `Bearer ${gatewayAdminKey}`, 'content-type': 'application/json' };

async function post<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: admin, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The forwarded API of `versionary gateway` writes the same attributes on its request spans. */
describe('versionary.* attributes on the request span of the gateway (in-process)', () => {
  let telemetry: TestTelemetry;
  let python: PythonUpstream;
  let gateway: TestGateway;
  let clientId = '';
  let key = '';
  const spanOf = async (path: string, status: number) => {
    const before = telemetry.requestSpans().length;
    const res = await fetch(`${gateway.base}${path}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.status, status, await res.text());
    const spans = telemetry.requestSpans().slice(before);
    assert.equal(spans.length, 1, `one request span for ${path}`);
    return spans[0]!.attributes;
  };

  before(async () => {
    telemetry = startTestTelemetry();
    python = await startPythonUpstream();
    gateway = await startTestGateway({
      upstream: python.url,
      file: {
        versions: { v1: { deprecatedAt: iso(t0 - 200 * day), sunsetAt: iso(t0 + 9 * day), replacement: 'v2' } },
        rateLimit: { max: 3, windowSeconds: 60, roles: { admin: { max: 1000 } } },
      },
    });
    clientId = (await post<{ id: string }>(`${gateway.base}/admin/v1/clients`, { name: 'Acme', contacts: [] })).id;
    key = (
      await post<{ key: string }>(`${gateway.base}/admin/v1/api-keys`, { name: 'acme', roles: ['read'], clientId })
    ).key;
  });
  after(async () => {
    // Whatever failed to start, what did start is stopped (a live upstream would hold the run open).
    await gateway?.stop();
    await python?.stop();
    await telemetry.stop();
  });

  it("says a forwarded v1 call is deprecated, with its sunset and client; a v2 call is not; a 429 names its rule and its version's deprecation", async () => {
    const v1 = await spanOf('/api/v1/users/1', 200);
    assert.equal(v1['versionary.api.version'], 'v1');
    assert.equal(v1['versionary.deprecated'], true);
    assert.equal(v1['versionary.sunset'], iso(t0 + 9 * day));
    assert.equal(v1['versionary.replacement'], 'v2');
    assert.equal(v1['versionary.client.id'], clientId);
    const v2 = await spanOf('/api/v2/users/1', 200);
    assert.equal(v2['versionary.api.version'], 'v2');
    assert.equal(v2['versionary.deprecated'], false);
    await spanOf('/api/v2/users/1', 200);
    const limited = await spanOf('/api/v2/users/1', 429);
    assert.equal(limited['versionary.decision'], 'rate_limited');
    assert.equal(limited['versionary.client.id'], clientId);
    // The 429 of a deprecated version carries its Deprecation and Sunset headers: the span says the same.
    const limitedV1 = await spanOf('/api/v1/users/1', 429);
    assert.equal(limitedV1['versionary.decision'], 'rate_limited');
    assert.equal(limitedV1['versionary.deprecated'], true);
    assert.equal(limitedV1['versionary.sunset'], iso(t0 + 9 * day));
    assert.equal(limitedV1['versionary.replacement'], 'v2');
  });
});
