import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gatewayAdminKey, spawnGateway, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';
import { entryOf, manifestFromCatalog, readManifest } from './manifest-support.ts';

const admin = { authorization: `Bearer ${gatewayAdminKey}`, 'content-type': 'application/json' };
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const now = Date.now();
const dates = { deprecatedAt: iso(now - day), sunsetAt: iso(now + 200 * day) };
const query = (name: string) => ({ name, in: 'query', required: false, schema: { type: 'string' } });

// `versionary gateway` as users run it, in front of a Python API: the manifest is the loop's, so
// the gateway serves it from its own lifecycle, without asking the upstream.
describe('versionary gateway: the deprecation manifest of the proxied API', () => {
  let python: PythonUpstream;
  let gateway: Awaited<ReturnType<typeof spawnGateway>>;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await spawnGateway({
      upstream: python.url,
      editDocument: (version, document) => {
        if (version !== 'v2') return;
        const users = (document.paths as Record<string, { get: { parameters?: unknown[] } }>)['/api/v2/users']!;
        users.get.parameters = [query('page'), query('cursor')];
      },
      file: {
        versions: { v1: { ...dates, replacement: 'v2' } },
        fieldDeprecations: [{ version: 'v2', resource: 'User', field: 'firstName', ...dates }],
        parameterDeprecations: [
          { version: 'v2', method: 'GET', path: '/users', parameter: 'page', replacement: 'cursor', ...dates },
        ],
      },
    });
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });

  it('is found from the api-catalog, open without a key, and lists v1, the field and the parameter', async () => {
    const url = await manifestFromCatalog(gateway.base);
    assert.equal(url, `${gateway.base}/api/deprecations`);
    const received = (await python.received()).length;
    const answer = await readManifest(url);
    assert.equal(answer.status, 200);
    assert.equal(answer.type, 'application/deprecations+json');
    assert.equal(answer.cacheControl, 'private, no-cache');
    assert.equal((await python.received()).length, received, 'the upstream is not asked');
    const v1 = entryOf(answer.deprecations, 'version', 'v1');
    assert.deepEqual([v1.deprecation, v1.sunset, v1.replacement], [dates.deprecatedAt, dates.sunsetAt, 'v2']);
    const field = entryOf(answer.deprecations, 'field', 'User.firstName');
    assert.deepEqual([field.member, field.pointer, field.sunset], ['firstName', '/firstName', dates.sunsetAt]);
    const parameter = entryOf(answer.deprecations, 'parameter', 'GET /users?page');
    assert.deepEqual(
      [parameter.in, parameter.member, parameter.replacement, parameter.deprecation],
      ['query', 'page', 'GET /users?cursor', dates.deprecatedAt],
    );
  });

  it('changes its ETag when an endpoint is deprecated through the management API, and answers 304 to the new one', async () => {
    const url = `${gateway.base}/api/deprecations`;
    const first = await readManifest(url);
    assert.equal((await readManifest(url, first.etag!)).status, 304);
    const res = await fetch(`${gateway.base}/admin/v1/deprecations`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ version: 'v2', method: 'GET', path: '/users/{id}', noticeMonths: 12 }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const again = await readManifest(url, first.etag!);
    assert.equal(again.status, 200);
    assert.notEqual(again.etag, first.etag);
    const endpoint = entryOf(again.deprecations, 'endpoint', 'GET /users/{id}');
    assert.equal(endpoint.version, 'v2');
    assert.equal(endpoint.guide, '/api/versions/v2/migration-guide');
    assert.equal((await readManifest(url, again.etag!)).status, 304);
  });
});
