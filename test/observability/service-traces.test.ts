import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spawnService, type ServiceProcess } from '../support/service-process.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.ts';

const adminKey = 'otel-admin-key-0123456789';
const admin = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
// A key a client put in the query string: it must reach no span and no log line.
const queryKey = 'vk_querystring0123.QUERYSECRET42';

/** The service as production runs it, exporting over OTLP/HTTP JSON to a local receiver. */
describe('OpenTelemetry traces of the service (node src/server.ts with OTEL_* set)', { timeout: 120_000 }, () => {
  let receiver: OtlpReceiver;
  let service: ServiceProcess;
  let dir: string;
  let key: string;
  let clientId: string;
  const serverSpan = (method: string, path: string, status: number) => (span: ReceivedSpan) =>
    span.kind === 2 &&
    span.attributes['http.request.method'] === method &&
    span.attributes['url.path'] === path &&
    span.attributes['http.response.status_code'] === status;

  before(async () => {
    receiver = await startOtlpReceiver();
    dir = mkdtempSync(join(tmpdir(), 'versionary-otel-'));
    const config = join(dir, 'config.json');
    // A small limit for read keys, so that a refused call (429) is one of a few.
    writeFileSync(config, JSON.stringify({ rateLimit: { max: 4, roles: { admin: { max: 1000 } } } }));
    service = await spawnService({
      env: {
        DATABASE_URL: `sqlite:${join(dir, 'service.db')}`,
        VERSIONARY_CONFIG: config,
        VERSIONARY_ADMIN_KEY: adminKey,
        // Request lines logged: the URL with a key in its query string is among them.
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_LOGS_EXPORTER: 'none',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_SERVICE_NAME: 'otel-test-service',
      },
    });
    const client = await fetch(`${service.base}/admin/v1/clients`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'Acme mobile' }),
    });
    assert.equal(client.status, 201, await client.clone().text());
    clientId = ((await client.json()) as { id: string }).id;
    const created = await fetch(`${service.base}/admin/v1/api-keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'mobile', roles: ['read'], clientId }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    key = ((await created.json()) as { key: string }).key;
    const auth = { authorization: `Bearer ${key}` };
    assert.equal((await fetch(`${service.base}/api/v2/users`, { headers: auth })).status, 200);
    assert.equal((await fetch(`${service.base}/api/v1/users`, { headers: auth })).status, 200);
    let status = 0;
    for (let i = 0; i < 10 && status !== 429; i++)
      status = (await fetch(`${service.base}/api/v2/users`, { headers: auth })).status;
    assert.equal(status, 429, 'the small limit refuses a call');
    // The limit is the key's, whatever the version: a deprecated version's call is refused too.
    const limitedV1 = await fetch(`${service.base}/api/v1/users`, { headers: auth });
    assert.equal(limitedV1.status, 429);
    assert.ok(limitedV1.headers.get('deprecation'), 'the 429 of a deprecated version says so');
    const inQuery = await fetch(`${service.base}/api/v2/users?limit=1&api_key=${queryKey}&Access_Token=${queryKey}`);
    assert.equal(inQuery.status, 401, 'a key is read from a header only');
    // A path no route matches (the admin key: the read key is spent): the 404 and its span hold the URL too.
    const nowhere = await fetch(`${service.base}/api/v2/nowhere?token=${queryKey}`, { headers: admin });
    assert.equal(nowhere.status, 404);
  });
  after(async () => {
    await service?.stop();
    await receiver?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports a server span per call, with the standard HTTP attributes and the service name', async () => {
    const v1 = await receiver.waitForSpan('for GET /api/v1/users', serverSpan('GET', '/api/v1/users', 200));
    assert.equal(typeof v1.attributes['http.route'], 'string');
    assert.match(String(v1.attributes['http.route']), /users/);
    assert.equal(v1.resource['service.name'], 'otel-test-service');
    await receiver.waitForSpan('for GET /api/v2/users', serverSpan('GET', '/api/v2/users', 200));
    await receiver.waitForSpan('for the refused call', serverSpan('GET', '/api/v2/users', 429));
    // The OTLP/JSON protocol was the one asked for.
    assert.ok(receiver.requests().every((r) => r.contentType.startsWith('application/json')));
  });

  it('the health probes make no spans', async () => {
    await receiver.waitForSpan('for GET /api/v1/users', serverSpan('GET', '/api/v1/users', 200));
    assert.deepEqual(
      receiver.spans().filter((s) => ['/livez', '/readyz', '/healthz'].includes(String(s.attributes['url.path']))),
      [],
    );
  });

  it('a v1 span says v1, deprecated, its sunset and the client, never the key', async () => {
    const v1 = await receiver.waitForSpan('for GET /api/v1/users', serverSpan('GET', '/api/v1/users', 200));
    assert.equal(v1.attributes['versionary.api.version'], 'v1');
    assert.equal(v1.attributes['versionary.deprecated'], true);
    assert.match(String(v1.attributes['versionary.sunset']), /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(v1.attributes['versionary.client.id'], clientId);
    assert.ok(!JSON.stringify(v1.attributes).includes(key), 'the key is never an attribute');
  });

  it('a v2 span says not deprecated', async () => {
    const v2 = await receiver.waitForSpan('for GET /api/v2/users', serverSpan('GET', '/api/v2/users', 200));
    assert.equal(v2.attributes['versionary.api.version'], 'v2');
    assert.equal(v2.attributes['versionary.deprecated'], false);
  });

  it('a refused call says which rule answered', async () => {
    const refused = await receiver.waitForSpan('for the refused call', serverSpan('GET', '/api/v2/users', 429));
    assert.equal(refused.attributes['versionary.decision'], 'rate_limited');
  });

  it("a deprecated version's 429 says deprecated, with its sunset and replacement, as its headers do", async () => {
    const refused = await receiver.waitForSpan('for the refused v1 call', serverSpan('GET', '/api/v1/users', 429));
    assert.equal(refused.attributes['versionary.decision'], 'rate_limited');
    assert.equal(refused.attributes['versionary.deprecated'], true);
    assert.match(String(refused.attributes['versionary.sunset']), /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(refused.attributes['versionary.replacement'], 'v2');
  });

  it('a key in the query string is on no exported span and in no log line: its value is REDACTED', async () => {
    const span = await receiver.waitForSpan(
      'for the call with a key in its query',
      (s) => s.kind === 2 && String(s.attributes['url.path']).startsWith('/api/v2/users?limit=1&'),
    );
    assert.equal(span.attributes['url.path'], '/api/v2/users?limit=1&api_key=REDACTED&Access_Token=REDACTED');
    await receiver.waitForSpan(
      'for the 404 with a key in its query',
      (s) => s.attributes['url.path'] === '/api/v2/nowhere?token=REDACTED',
    );
    const exported = receiver.traceBodies().join('\n');
    assert.ok(!exported.includes('QUERYSECRET42'), 'no exported span, event or status holds the key');
    const logged = service.output();
    assert.match(logged, /"url":"\/api\/v2\/users\?limit=1&api_key=REDACTED&Access_Token=REDACTED"/);
    assert.ok(!logged.includes('QUERYSECRET42'), 'no log line holds the key');
  });
});

describe('OpenTelemetry at shutdown', { timeout: 60_000 }, () => {
  it('SIGTERM exports the spans still batched before the process exits', async () => {
    const receiver = await startOtlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'versionary-otel-'));
    try {
      // A batch delay far beyond the test: only the shutdown's flush can export the span in time.
      const service = await spawnService({
        env: {
          DATABASE_URL: `sqlite:${join(dir, 'service.db')}`,
          VERSIONARY_ADMIN_KEY: adminKey,
          LOG_LEVEL: 'warn',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_LOGS_EXPORTER: 'none',
          OTEL_BSP_SCHEDULE_DELAY: '600000',
        },
      });
      const last = await fetch(`${service.base}/api/v2/users/999999`, {
        headers: { authorization: `Bearer ${adminKey}` },
      });
      assert.equal(last.status, 404);
      assert.equal(receiver.spans().length, 0, 'nothing exported before the signal');
      const { code } = await service.stop();
      assert.equal(code, 0);
      const span = await receiver.waitForSpan(
        'for the last call',
        (s) => s.attributes['url.path'] === '/api/v2/users/999999',
        1000,
      );
      // No OTEL_SERVICE_NAME: the service names itself.
      assert.equal(span.resource['service.name'], 'versionary');
    } finally {
      await receiver.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
