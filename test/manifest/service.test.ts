import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';
import { entryOf, manifestFromCatalog, readManifest } from './manifest-support.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const now = Date.now();
const fieldDates = { deprecatedAt: iso(now - day), sunsetAt: iso(now + 200 * day) };
const parameterDates = { deprecatedAt: iso(now - day), sunsetAt: iso(now + 300 * day) };

// The reference service with its own example of a deprecated field (`nickname`, replaced by
// `displayName`) and query parameter (the single user's `fields`), as its config file declares them.
const file = {
  fieldDeprecations: [
    { version: 'v2', resource: 'User', field: 'nickname', replacement: 'displayName', ...fieldDates },
  ],
  parameterDeprecations: [
    { version: 'v2', method: 'GET', path: '/users/{id}', parameter: 'fields', ...parameterDates },
  ],
};

describe('the deprecation manifest of the reference service', () => {
  let service: StartedService;
  let url: string;
  before(async () => {
    service = await startTestService({ file });
    url = await manifestFromCatalog(service.base);
  });
  after(() => service.stop());

  it('is found from the api-catalog and served without a key as application/deprecations+json', async () => {
    assert.equal(url, `${service.base}/api/deprecations`);
    const answer = await readManifest(url);
    assert.equal(answer.status, 200);
    assert.equal(answer.type, 'application/deprecations+json');
    assert.equal(answer.cacheControl, 'private, no-cache', 'cached as the documents are');
    assert.match(answer.etag ?? '', /^"dm-[A-Za-z0-9_-]{27}"$/);
    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), answer.etag);
  });

  it('lists v1, the field and the parameter, each with its dates, replacement and guide', async () => {
    const { deprecations } = await readManifest(url);
    const v1 = entryOf(deprecations, 'version', 'v1');
    assert.equal(v1.href, '/api/v1');
    assert.equal(v1.replacement, 'v2');
    assert.equal(v1.guide, '/api/versions/v1/migration-guide');
    assert.ok(Date.parse(v1.sunset) > Date.parse(v1.deprecation));
    // The dates are the ones v1's responses carry.
    const keyed = await adminCaller(service)('POST', '/admin/v1/api-keys', {
      name: 'caller',
      roles: ['read', 'write'],
    });
    const key = (JSON.parse(keyed.body) as { key: string }).key;
    const call = await fetch(`${service.base}/api/v1/users`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(call.status, 200);
    assert.equal(call.headers.get('deprecation'), v1.deprecation);
    assert.equal(call.headers.get('sunset'), v1.sunset);
    assert.match(
      call.headers.get('link') ?? '',
      /^<\/api\/versions\/v1\/migration-guide>; rel="deprecation", .*<\/api\/deprecations>; rel="deprecation"; type="application\/deprecations\+json"$/,
      'the manifest is linked after the guide, which stays the first rel="deprecation"',
    );

    // A v2 request that sends the deprecated field: the field's own link, then the manifest's.
    const sent = await fetch(`${service.base}/api/v2/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', nickname: 'ada' }),
    });
    assert.equal(sent.status, 201);
    assert.match(
      sent.headers.get('link') ?? '',
      /; rel="deprecation"; title="User\.nickname", <\/api\/deprecations>; rel="deprecation"; type="application\/deprecations\+json"$/,
    );

    const field = entryOf(deprecations, 'field', 'User.nickname');
    assert.deepEqual(
      { ...field },
      {
        kind: 'field',
        name: 'User.nickname',
        version: 'v2',
        in: 'body',
        schema: 'User',
        member: 'nickname',
        pointer: '/nickname',
        deprecation: fieldDates.deprecatedAt,
        sunset: fieldDates.sunsetAt,
        replacement: 'User.displayName',
        guide: '/api/versions/v2/migration-guide',
      },
    );
    const parameter = entryOf(deprecations, 'parameter', 'GET /users/{id}?fields');
    assert.deepEqual(
      { ...parameter },
      {
        kind: 'parameter',
        name: 'GET /users/{id}?fields',
        version: 'v2',
        in: 'query',
        method: 'GET',
        path: '/users/{id}',
        member: 'fields',
        deprecation: parameterDates.deprecatedAt,
        sunset: parameterDates.sunsetAt,
        replacement: null,
        guide: '/api/versions/v2/migration-guide',
      },
    );
  });

  it('answers 304 to its ETag, and changes its ETag when an endpoint is deprecated through the management API', async () => {
    const first = await readManifest(url);
    assert.equal((await readManifest(url, first.etag!)).status, 304);
    assert.equal((await readManifest(url, `"dm-other", ${first.etag!}`)).status, 304, 'a list that holds it');
    assert.equal(first.deprecations.filter((d) => d.kind === 'endpoint').length, 0);

    const sunsetAt = iso(now + 400 * day);
    const created = await adminCaller(service)('POST', '/admin/v1/deprecations', {
      version: 'v2',
      method: 'DELETE',
      path: '/users/{id}',
      sunsetAt,
    });
    assert.equal(created.statusCode, 201, created.body);
    const { deprecatedAt } = JSON.parse(created.body) as { deprecatedAt: string };

    const again = await readManifest(url, first.etag!);
    assert.equal(again.status, 200, 'the old ETag no longer matches');
    assert.notEqual(again.etag, first.etag);
    const endpoint = entryOf(again.deprecations, 'endpoint', 'DELETE /users/{id}');
    assert.deepEqual(
      { ...endpoint },
      {
        kind: 'endpoint',
        name: 'DELETE /users/{id}',
        version: 'v2',
        method: 'DELETE',
        path: '/users/{id}',
        deprecation: deprecatedAt,
        sunset: sunsetAt,
        replacement: null,
        guide: '/api/versions/v2/migration-guide',
      },
    );
    assert.equal((await readManifest(url, again.etag!)).status, 304);
    // The admin list and the manifest tell the same deprecations.
    const listed = await adminCaller(service)('GET', '/admin/v1/deprecations');
    const data = (JSON.parse(listed.body) as { data: Array<{ kind: string }> }).data;
    assert.deepEqual(data.map((d) => d.kind).sort(), again.deprecations.map((d) => d.kind).sort());
  });
});
