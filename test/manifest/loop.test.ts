import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { createFixedClock } from '../../src/core/clock/index.ts';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import { createApiBundle } from '../../src/reference/api/index.ts';
import { referenceHandlers } from '../../src/reference/resources/feature.ts';

const clock = createFixedClock(Date.UTC(2026, 5, 1));
const settings = {
  versions: {
    v1: { releasedAt: '2025-01-15', deprecatedAt: '2026-05-01', sunsetAt: '2027-01-01', replacement: 'v2' },
    v2: { releasedAt: '2026-03-02' },
  },
  fieldDeprecations: [
    {
      version: 'v2',
      resource: 'User',
      field: 'nickname',
      replacement: 'displayName',
      deprecatedAt: '2026-05-15',
      sunsetAt: '2027-03-01',
    },
  ],
  parameterDeprecations: [
    {
      version: 'v2',
      method: 'GET',
      path: '/users/{id}',
      parameter: 'fields',
      deprecatedAt: '2026-05-15',
      sunsetAt: '2027-03-01',
    },
  ],
};

/** A team's own Fastify with the loop and the reference handlers, as `three-apps.ts` writes one. */
async function loopApp(options: { portal: boolean }): Promise<{ app: FastifyInstance; adminKey: string }> {
  const bundle = createApiBundle();
  let adminKey = '';
  const app = Fastify({ ...loopServerOptions({ bundle, vendor: 'versionary' }), logger: false });
  await app.register(versionaryLoop, {
    bundle,
    vendor: 'versionary',
    title: 'Users and posts',
    database: 'sqlite::memory:',
    clock,
    handlers: referenceHandlers,
    settings,
    portal: options.portal,
    onBootstrapKey: (key) => (adminKey = key),
  });
  await app.ready();
  return { app, adminKey };
}

type Entry = Record<string, unknown> & { kind: string; name: string };

describe('versionaryLoop: the deprecation manifest in a team app', () => {
  it('is served with the portal off, open, listing v1, the field and the parameter with their dates', async () => {
    const { app } = await loopApp({ portal: false });
    try {
      assert.equal((await app.inject({ url: '/.well-known/api-catalog' })).statusCode, 404, 'no portal');
      const res = await app.inject({ url: '/api/deprecations' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/deprecations+json');
      const { deprecations } = res.json() as { deprecations: Entry[] };
      assert.deepEqual(
        deprecations.map((d) => [d.kind, d.name, d.deprecation, d.sunset, d.replacement]),
        [
          ['version', 'v1', '2026-05-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', 'v2'],
          ['field', 'User.nickname', '2026-05-15T00:00:00.000Z', '2027-03-01T00:00:00.000Z', 'User.displayName'],
          ['parameter', 'GET /users/{id}?fields', '2026-05-15T00:00:00.000Z', '2027-03-01T00:00:00.000Z', null],
        ],
      );
      // Every guide it names is served.
      for (const guide of new Set(deprecations.map((d) => String(d.guide))))
        assert.equal((await app.inject({ url: guide })).statusCode, 200, guide);
      // Asked for by the API's vendor type, it stays the manifest: `Accept` moves no reserved segment.
      const vendor = await app.inject({
        url: '/api/deprecations',
        headers: { accept: 'application/vnd.versionary+json; version=2' },
      });
      assert.equal(vendor.statusCode, 200);
      assert.equal(vendor.body, res.body);
    } finally {
      await app.close();
    }
  });

  it('is linked from the api-catalog, and its ETag follows an endpoint deprecated through the management API', async () => {
    const { app, adminKey } = await loopApp({ portal: true });
    try {
      const catalog = (await app.inject({ url: '/.well-known/api-catalog' })).json() as {
        linkset: Array<{ anchor: string; deprecation?: Array<{ href: string; type: string }> }>;
      };
      assert.deepEqual(catalog.linkset[0]!.deprecation, [
        { href: '/api/deprecations', type: 'application/deprecations+json', title: 'Deprecation manifest of the API' },
      ]);
      const first = await app.inject({ url: '/api/deprecations' });
      const etag = String(first.headers.etag);
      assert.equal(
        (await app.inject({ url: '/api/deprecations', headers: { 'if-none-match': etag } })).statusCode,
        304,
      );
      const created = await app.inject({
        method: 'POST',
        url: '/admin/v1/deprecations',
        headers: { authorization: `Bearer ${adminKey}` },
        payload: { version: 'v2', method: 'POST', path: '/users', noticeMonths: 12 },
      });
      assert.equal(created.statusCode, 201, created.body);
      const again = await app.inject({ url: '/api/deprecations', headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 200);
      assert.notEqual(again.headers.etag, etag);
      const endpoint = (again.json() as { deprecations: Entry[] }).deprecations.find((d) => d.kind === 'endpoint');
      assert.deepEqual(endpoint, {
        kind: 'endpoint',
        name: 'POST /users',
        version: 'v2',
        method: 'POST',
        path: '/users',
        deprecation: '2026-06-01T00:00:00.000Z',
        sunset: new Date(Date.UTC(2026, 5, 1) + 12 * 30 * 86_400_000).toISOString(),
        replacement: null,
        guide: '/api/versions/v2/migration-guide',
      });
    } finally {
      await app.close();
    }
  });
});
