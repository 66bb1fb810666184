import assert from 'node:assert/strict';
import { test } from 'node:test';
import createClient from 'openapi-fetch';
import { createVersionaryClient, SunsetApproachingError, type DeprecationNotice } from '../../src/client/index.ts';
import { MONTH_MS } from '../../src/core/lifecycle/index.ts';
import { adminHeaders, createTestApp, testEpoch } from '../support/test-app.ts';

// The client against the real reference service over a socket: v1 is deprecated by default with
// six months' notice from the first start (the test clock's epoch), v2 is current.
async function liveService(config?: Record<string, unknown>) {
  const test = await createTestApp(
    config
      ? {
          env: { VERSIONARY_CONFIG: '/c.json' },
          files: { '/c.json': JSON.stringify({ rateLimit: { max: 1_000_000, windowSeconds: 60 }, ...config }) },
        }
      : {},
  );
  const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
  return { base: `${address}/api`, origin: address, close: test.close };
}

// The service's default notice: six 30-day months.
const sunset = testEpoch + 6 * MONTH_MS;

for (const headerStyle of ['iso8601', 'rfc'] as const) {
  test(`live service (${headerStyle} headers): v1 is reported once with its dates and guide, v2 not at all`, async () => {
    const service = await liveService(headerStyle === 'rfc' ? { headerStyle } : undefined);
    try {
      const notices: DeprecationNotice[] = [];
      const options = {
        baseUrl: service.base,
        now: () => testEpoch,
        onDeprecation: (n: DeprecationNotice) => notices.push(n),
      };
      const newer: string[][] = [];
      const v1 = createVersionaryClient({ ...options, version: 1, onNewVersion: (n) => newer.push(n.newer) });
      const v2 = createVersionaryClient({ ...options, version: 2 });
      for (const path of ['/users', '/users?limit=1'])
        assert.equal((await v1.fetch(path, { headers: adminHeaders })).status, 200);
      assert.equal((await v2.fetch('/users', { headers: adminHeaders })).status, 200);
      assert.equal(notices.length, 1);
      assert.deepEqual(newer, [['v2']]);
      const [notice] = notices;
      assert.equal(notice!.version, 'v1');
      assert.equal(notice!.endpoint, `GET ${service.base}/v1/users`);
      // The rfc style carries whole seconds only.
      assert.equal(notice!.deprecatedAt?.getTime(), testEpoch);
      assert.equal(notice!.sunsetAt?.getTime(), sunset);
      assert.equal(notice!.daysLeft, 180);
      assert.equal(notice!.guideUrl, `${service.base}/versions/v1/migration-guide`);
      if (headerStyle === 'iso8601') assert.equal(notice!.successorUrl, `${service.base}/v2/openapi.json`);
      // The guide link is live.
      assert.equal((await fetch(notice!.guideUrl!, { headers: { accept: 'application/json' } })).status, 200);
    } finally {
      await service.close();
    }
  });
}

test('live service: accept versioning reaches v1 through the unversioned path and is reported', async () => {
  const service = await liveService();
  try {
    const notices: DeprecationNotice[] = [];
    const client = createVersionaryClient({
      baseUrl: service.base,
      version: 1,
      versioning: 'accept',
      vendor: 'versionary',
      now: () => testEpoch,
      onDeprecation: (n) => notices.push(n),
    });
    const res = await client.fetch('/users', { headers: adminHeaders });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('vary'), 'Accept');
    assert.equal(notices.length, 1);
    assert.equal(notices[0]!.version, 'v1');
  } finally {
    await service.close();
  }
});

test('live service: failWithinDays fails a v1 call once the sunset is that close', async () => {
  const service = await liveService();
  try {
    const client = createVersionaryClient({
      baseUrl: service.base,
      version: 1,
      failWithinDays: 200,
      now: () => testEpoch,
      onDeprecation: () => {},
    });
    await assert.rejects(client.fetch('/users', { headers: adminHeaders }), SunsetApproachingError);
    const relaxed = createVersionaryClient({
      baseUrl: service.base,
      version: 1,
      failWithinDays: 30,
      now: () => testEpoch,
      onDeprecation: () => {},
    });
    assert.equal((await relaxed.fetch('/users', { headers: adminHeaders })).status, 200);
  } finally {
    await service.close();
  }
});

test('live service: as openapi-fetch middleware, in path and accept versioning', async () => {
  const service = await liveService();
  try {
    const notices: DeprecationNotice[] = [];
    const path = createVersionaryClient({ version: 1, now: () => testEpoch, onDeprecation: (n) => notices.push(n) });
    const api = createClient<Record<string, never>>({ baseUrl: `${service.base}/v1`, headers: adminHeaders });
    api.use(path.middleware);
    const { response } = await (api as unknown as { GET(url: string): Promise<{ response: Response }> }).GET('/users');
    assert.equal(response.status, 200);
    assert.equal(notices.length, 1);
    assert.equal(notices[0]!.endpoint, `GET ${service.base}/v1/users`);

    const accept = createVersionaryClient({
      version: 2,
      versioning: 'accept',
      vendor: 'versionary',
      onDeprecation: (n) => notices.push(n),
    });
    const unversioned = createClient<Record<string, never>>({ baseUrl: service.base, headers: adminHeaders });
    unversioned.use(accept.middleware);
    const second = await (
      unversioned as unknown as { GET(url: string): Promise<{ response: Response; data: unknown }> }
    ).GET('/users');
    assert.equal(second.response.status, 200);
    assert.ok(Array.isArray((second.data as { data: unknown[] }).data), 'v2 answered: lists are objects with data');
    assert.equal(notices.length, 1, 'v2 is current: no notice');
  } finally {
    await service.close();
  }
});
