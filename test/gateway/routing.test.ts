import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/service-process.ts';
import {
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

const auth = { authorization: `Bearer ${gatewayAdminKey}` };
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('gateway: routing and lifecycle in front of a Python API', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await startTestGateway({
      upstream: python.url,
      // v1 forwards the paths its document does not declare (v2 answers them 404: table-routes.test.ts).
      gateway: {
        versions: {
          v1: { upstream: python.url, openapi: './openapi-v1.json', forwardUndocumented: true },
          v2: { upstream: python.url, openapi: './openapi-v2.json' },
        },
      },
      file: {
        versions: {
          v1: { deprecatedAt: iso(Date.now() - 200 * day), sunsetAt: iso(Date.now() + 10 * day), replacement: 'v2' },
        },
        endpointDeprecations: [
          {
            version: 'v2',
            method: 'GET',
            path: '/echo',
            deprecatedAt: iso(Date.now() - day),
            sunsetAt: iso(Date.now() + 200 * day),
          },
        ],
        notices: {
          brownouts: [
            {
              version: 'v1',
              endpoint: 'GET /slow',
              startsAt: iso(Date.now() - 60_000),
              endsAt: iso(Date.now() + 3_600_000),
            },
          ],
        },
      },
    });
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });

  it("forwards /api/v<n>/… to its upstream unchanged, with the deprecated version's headers", async () => {
    const v1 = await fetch(`${gateway.base}/api/v1/users/1`, { headers: auth });
    assert.equal(v1.status, 200);
    assert.deepEqual(await v1.json(), { id: 1, name: 'Ada Lovelace' });
    assert.ok(v1.headers.get('deprecation'), 'Deprecation');
    assert.ok(v1.headers.get('sunset'), 'Sunset');
    assert.match(v1.headers.get('link') ?? '', /rel="successor-version"/);
    assert.match(v1.headers.get('warning') ?? '', /^299 /, 'Warning within 30 days of the sunset');
    assert.match(v1.headers.get('server') ?? '', /Python/, 'the upstream answered');
    const v2 = await fetch(`${gateway.base}/api/v2/users/1`, { headers: auth });
    assert.deepEqual(await v2.json(), { id: 1, firstName: 'Ada', lastName: 'Lovelace' });
    for (const name of ['deprecation', 'sunset', 'warning'])
      assert.equal(v2.headers.get(name), null, `${name} on the current version`);
    assert.equal(v2.headers.get('api-supported-versions'), 'v2');
    assert.equal(v2.headers.get('api-deprecated-versions'), 'v1');
  });

  it("joins the upstream's Link with the lifecycle's, and keeps its query string", async () => {
    const res = await fetch(`${gateway.base}/api/v1/users?page=1&q=a%20b`, { headers: auth });
    assert.equal(res.status, 200);
    const link = res.headers.get('link') ?? '';
    assert.match(link, /rel="next"/, "the upstream's link");
    assert.match(link, /rel="deprecation"/, "the lifecycle's link");
    const echo = (await (await fetch(`${gateway.base}/api/v2/echo?q=a%20b&x=1`, { headers: auth })).json()) as {
      path: string;
    };
    assert.equal(echo.path, '/api/v2/echo?q=a%20b&x=1');
  });

  it('serves the Accept form from a path-only upstream, and varies by Accept', async () => {
    for (const accept of ['application/vnd.acme.v1+json', 'application/json; version=1']) {
      const res = await fetch(`${gateway.base}/api/users/2`, { headers: { ...auth, accept } });
      assert.equal(res.status, 200, accept);
      assert.deepEqual(await res.json(), { id: 2, name: 'Alan Turing' });
      assert.match(res.headers.get('vary') ?? '', /Accept/);
      assert.ok(res.headers.get('deprecation'));
    }
    const echo = (await (
      await fetch(`${gateway.base}/api/echo?a=1`, { headers: { ...auth, accept: 'application/vnd.acme.v2+json' } })
    ).json()) as { path: string };
    assert.equal(echo.path, '/api/v2/echo?a=1');
  });

  it('answers a missing version 400 and an unknown one 404, naming the versions, without the upstream', async () => {
    const none = await fetch(`${gateway.base}/api/users/1`, { headers: auth });
    assert.equal(none.status, 400);
    const problem = (await none.json()) as { code: string; supportedVersions: string[] };
    assert.equal(problem.code, 'VERSION_MISSING');
    assert.deepEqual(problem.supportedVersions, ['v1', 'v2']);
    const unknown = await fetch(`${gateway.base}/api/v9/users/1`, { headers: auth });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.match(await unknown.text(), /v1, v2/);
  });

  it('marks a deprecated endpoint, matched by the path template of its document', async () => {
    const echo = await fetch(`${gateway.base}/api/v2/echo`, { headers: auth });
    assert.equal(echo.status, 200);
    assert.ok(echo.headers.get('deprecation'), 'the deprecated endpoint');
    assert.equal(
      (await fetch(`${gateway.base}/api/v2/users/1`, { headers: auth })).headers.get('deprecation'),
      null,
      'its neighbours',
    );
    const doc = (await (await fetch(`${gateway.base}/api/v2/openapi.json`, { headers: auth })).json()) as {
      servers: Array<{ url: string }>;
      paths: Record<string, Record<string, { deprecated?: boolean }>>;
    };
    assert.deepEqual(doc.servers, [{ url: '/api/v2' }]);
    assert.equal(doc.paths['/echo']?.get?.deprecated, true);
    assert.equal(doc.paths['/users/{id}']?.get?.deprecated, undefined);
  });

  it("answers a brownout itself, and passes undocumented paths through under the version's verdict where it says so", async () => {
    const slow = await fetch(`${gateway.base}/api/v1/slow?ms=5000`, { headers: auth });
    assert.equal(slow.status, 410);
    assert.match(((await slow.json()) as { detail: string }).detail, /brownout/);
    assert.ok(Number(slow.headers.get('retry-after')) > 0);
    const other = await fetch(`${gateway.base}/api/v1/not/documented`, { headers: auth });
    assert.equal(other.status, 404, "the upstream's own 404");
    assert.deepEqual(await other.json(), { error: 'not here', path: '/api/v1/not/documented' });
    assert.ok(other.headers.get('deprecation'), 'the version is deprecated, documented path or not');
  });
});

describe('gateway: a removed version', () => {
  it('answers 410 from the gateway without calling the upstream (which is not even there)', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const python = await startPythonUpstream();
    const gateway = await startTestGateway({
      upstream: python.url,
      gateway: {
        versions: {
          v1: { upstream: dead, openapi: './openapi-v1.json' },
          v2: { upstream: python.url, openapi: './openapi-v2.json' },
        },
      },
      file: {
        versions: { v1: { removed: true }, v2: {} },
        // A brownout of the removed version changes nothing: the removal answers, the document stays readable.
        notices: {
          brownouts: [{ version: 'v1', startsAt: iso(Date.now() - 60_000), endsAt: iso(Date.now() + 3_600_000) }],
        },
      },
    });
    try {
      const document = await fetch(`${gateway.base}/api/v1/openapi.json`, { headers: auth });
      assert.equal(document.status, 200, 'the document of a removed version stays readable');
      const info = ((await document.json()) as { info: Record<string, unknown> }).info;
      assert.equal(info['x-removed'], true);
      assert.ok(Math.abs(Date.parse(String(info['x-sunset'])) - Date.now()) < 600_000, 'removed at this start');
      assert.match(String(info.description), /^REMOVED: v1 was removed/);
      for (const [method, url] of [
        ['GET', '/api/v1/users/1'],
        ['POST', '/api/v1/echo'],
        ['GET', '/api/v1/anything/else'],
      ]) {
        const res = await fetch(`${gateway.base}${url}`, { method, headers: auth });
        assert.equal(res.status, 410, `${method} ${url}`);
        const problem = (await res.json()) as { code: string; detail: string };
        assert.equal(problem.code, 'VERSION_REMOVED');
        assert.doesNotMatch(problem.detail, /brownout|Migrate before/);
      }
      const res = await fetch(`${gateway.base}/api/users/1`, {
        headers: { ...auth, accept: 'application/vnd.acme.v1+json' },
      });
      assert.equal(res.status, 410, 'the Accept form too');
      assert.equal((await fetch(`${gateway.base}/api/v2/users/1`, { headers: auth })).status, 200);
    } finally {
      await gateway.stop();
      await python.stop();
    }
  });
});

describe('gateway: an API prefix other than /api', () => {
  it('browns out and labels metrics by the configured prefix', async () => {
    const python = await startPythonUpstream();
    const gateway = await startTestGateway({
      upstream: python.url,
      gateway: { prefix: '/public' },
      file: {
        versions: {
          v1: { deprecatedAt: iso(Date.now() - 200 * day), sunsetAt: iso(Date.now() + 10 * day), replacement: 'v2' },
        },
        notices: {
          brownouts: [{ version: 'v1', startsAt: iso(Date.now() - 60_000), endsAt: iso(Date.now() + 3_600_000) }],
        },
      },
    });
    try {
      // The whole of v1 is browned out (the test documents name /api paths, so /public ones take the catch-all route).
      const slow = await fetch(`${gateway.base}/public/v1/slow?ms=5000`, { headers: auth });
      assert.equal(slow.status, 410, 'the brownout applies under /public as under /api');
      assert.match(((await slow.json()) as { detail: string }).detail, /brownout/);
      const other = await fetch(`${gateway.base}/public/v2/users/1`, { headers: auth });
      assert.equal(other.status, 404, 'the upstream, which knows only /api, answered');
      const metrics = await (await fetch(`${gateway.base}/metrics`, { headers: auth })).text();
      assert.match(
        metrics,
        /route="\/public\/v1\/\*"[^\n]*version="v1"|version="v1"[^\n]*route="\/public\/v1\/\*"/,
        'the version label comes from the configured prefix',
      );
    } finally {
      await gateway.stop();
      await python.stop();
    }
  });

  it('limits, gates and counts under /public, where /api/... is just another path', async () => {
    const python = await startPythonUpstream();
    const gateway = await startTestGateway({
      upstream: python.url,
      gateway: { prefix: '/public' },
      file: {
        rateLimit: { max: 3, windowSeconds: 60, roles: { admin: { max: 1000 } } },
        versions: { v1: { removed: true }, v2: {} },
      },
    });
    try {
      // The removed gate follows the prefix: /public/v1 is gone, /api/v1 is no API path at all.
      const removed = await fetch(`${gateway.base}/public/v1/users/1`, { headers: auth });
      assert.equal(removed.status, 410);
      assert.equal(((await removed.json()) as { code: string }).code, 'VERSION_REMOVED');
      assert.notEqual((await fetch(`${gateway.base}/api/v1/users/1`, { headers: auth })).status, 410);
      // Anonymous calls are counted per address under /public, and refused past the limit.
      const anonymous: number[] = [];
      for (let i = 0; i < 4; i++) anonymous.push((await fetch(`${gateway.base}/public/v2/users/1`)).status);
      assert.deepEqual(anonymous, [401, 401, 401, 429]);
      const elsewhere = await fetch(`${gateway.base}/api/v2/users/1`);
      assert.equal(elsewhere.headers.get('ratelimit-policy'), null, '/api is not limited here');
      assert.notEqual(elsewhere.status, 429);
      // An authenticated call under /public is limited by its own policy and counted as v2.
      const served = await fetch(`${gateway.base}/public/v2/users/1`, { headers: auth });
      assert.ok(served.headers.get('ratelimit-policy'), 'the limit applies under /public');
      const metrics = await (await fetch(`${gateway.base}/metrics`, { headers: auth })).text();
      assert.match(metrics, /version="v2"/, 'metrics label the /public call with its version');
    } finally {
      await gateway.stop();
      await python.stop();
    }
  });
});
