import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/compose/build-app.ts';
import { referenceProduct } from '../../src/reference/product.ts';
import { loadConfig } from '../../src/loop/settings.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';
import { assertProblemShape } from '../support/assertions.ts';
import { adminHeaders, createTestApp, testAdminKey, type TestApp } from '../support/test-app.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const none = { authorization: '' };

describe('probes, metrics and request ids', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ now: Date.now() });
  });
  after(() => t.close());

  it('/livez and /readyz answer without credentials and say nothing about the dependencies', async () => {
    const live = await t.app.inject({ url: '/livez', headers: none });
    assert.equal(live.statusCode, 200);
    assert.deepEqual(live.json(), { status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz', headers: none });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ready' });
    assert.equal(ready.headers['cache-control'], 'no-store');
  });

  it('/readyz fails when the storage does not answer, with a problem that names nothing', async () => {
    const storage = await openSqliteStorage({ path: ':memory:' });
    const config = loadConfig({
      env: { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: testAdminKey },
      readFile: () => '',
    });
    const app = await buildApp({
      product: referenceProduct(),
      config,
      storage: {
        ...storage,
        ping: async () => {
          throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' });
        },
      },
      clock: { now: Date.now },
    });
    const res = await app.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assertProblemShape(res.json(), 503);
    assert.equal(res.json().code, 'STORAGE_UNAVAILABLE');
    assert.ok(res.headers['retry-after']);
    assert.doesNotMatch(res.body, /10\.0\.0\.7|ECONNREFUSED|5432/);
    assert.equal((await app.inject({ url: '/livez' })).statusCode, 200, 'alive all the same');
    await app.close();
    await storage.close();
  });

  it('/readyz fails at once when shutdown starts', async () => {
    const storage = await openSqliteStorage({ path: ':memory:' });
    const config = loadConfig({
      env: { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: testAdminKey },
      readFile: () => '',
    });
    let closing = false;
    const app = await buildApp({
      product: referenceProduct(),
      config,
      storage,
      clock: { now: Date.now },
      ops: { shuttingDown: () => closing },
    });
    assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
    closing = true;
    const res = await app.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().code, 'SHUTTING_DOWN');
    const served = await app.inject({ url: '/api/v2/users', headers: adminHeaders });
    assert.equal(served.statusCode, 200, 'requests still in reach are served while draining');
    assert.equal(served.headers.connection, 'close');
    await app.close();
    await storage.close();
  });

  it('/metrics needs an admin key', async () => {
    assert.equal((await t.app.inject({ url: '/metrics', headers: none })).statusCode, 401);
    const { key } = (
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/api-keys',
        headers: adminHeaders,
        payload: { name: 'reader', roles: ['read'] },
      })
    ).json() as { key: string };
    assert.equal(
      (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${key}` } })).statusCode,
      403,
    );
  });

  it('/metrics counts requests by route template, version and status, deprecated calls, 429s and 410s, and takes plugged-in gauges', async () => {
    t.app.metrics.registerGauge({
      name: 'versionary_notice_outbox_depth',
      help: 'Notices waiting to be sent.',
      collect: () => 7,
    });
    await t.app.inject({ url: '/api/v1/users', headers: adminHeaders });
    await t.app.inject({ url: '/api/v2/users/12345', headers: adminHeaders });
    const res = await t.app.inject({ url: '/metrics', headers: adminHeaders });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    const text = res.body;
    assert.match(
      text,
      /versionary_http_requests_total\{method="GET",route="\/api\/v1\/users",version="v1",status="200"\} 1/,
    );
    assert.match(
      text,
      /versionary_http_requests_total\{method="GET",route="\/api\/v2\/users\/:id",version="v2",status="404"\} 1/,
    );
    assert.match(
      text,
      /versionary_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/v1\/users"/,
    );
    assert.match(text, /versionary_deprecated_calls_total\{version="v1"\} 1/);
    for (const name of [
      'versionary_removed_calls_total',
      'versionary_rate_limit_rejections_total',
      'versionary_usage_buffer_depth',
      'versionary_usage_records_shed_total',
      'versionary_change_feed_healthy',
      'process_cpu_seconds_total',
    ]) {
      assert.match(text, new RegExp(`# TYPE ${name} `), name);
    }
    assert.match(text, /# TYPE versionary_usage_records_shed_total counter/);
    assert.match(text, /versionary_notice_outbox_depth 7/);
    assert.doesNotMatch(text, /12345/, 'ids never become labels');
  });

  it('honours a well-formed X-Request-Id and returns it, in the header and in problem bodies', async () => {
    const res = await t.app.inject({
      url: '/api/v2/nowhere',
      headers: { ...adminHeaders, 'x-request-id': 'lb-7f3a.42:abc' },
    });
    assert.equal(res.headers['x-request-id'], 'lb-7f3a.42:abc');
    assert.equal(res.json().requestId, 'lb-7f3a.42:abc');
  });

  it('replaces a malformed or missing X-Request-Id with a unique UUID', async () => {
    const ids = new Set<string>();
    for (const header of [undefined, '', 'has space', 'x'.repeat(129), '<script>', 'a\u00e9', '-leading-dash']) {
      const res = await t.app.inject({
        url: '/api/v2/users',
        headers: { ...adminHeaders, ...(header === undefined ? {} : { 'x-request-id': header }) },
      });
      const id = String(res.headers['x-request-id']);
      assert.match(id, uuid, `for ${JSON.stringify(header)}`);
      ids.add(id);
    }
    assert.equal(ids.size, 7);
  });

  it('every problem body carries the request id, 401s included', async () => {
    const res = await t.app.inject({ url: '/api/v2/users', headers: none });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().requestId, res.headers['x-request-id']);
  });
});
