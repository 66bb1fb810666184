import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, varyOf } from '../support/assertions.ts';
import { createTestApp, createUser, json, type TestApp } from '../support/test-app.ts';

describe('version carriage', () => {
  let t: TestApp;
  let id: number;
  before(async () => {
    t = await createTestApp();
    id = (await createUser(t.app, { body: { name: 'Ada', email: 'ada@example.com', status: 'pending' } })).id as number;
  });
  after(() => t.close());

  const v1Body = () => ({ id, name: 'Ada', status: 'inactive' });
  const v2Body = () => ({ id, name: 'Ada', email: 'ada@example.com', status: 'pending', _version: 1 });

  it('serves v1 and v2 by path, without Vary', async () => {
    const one = await t.app.inject({ url: `/api/v1/users/${id}` });
    assert.equal(one.statusCode, 200);
    assert.deepEqual(json(one), v1Body());
    assert.ok(!varyOf(one).includes('accept'));
    const two = await t.app.inject({ url: `/api/v2/users/${id}` });
    assert.equal(two.statusCode, 200);
    assert.deepEqual(json(two), v2Body());
    assert.ok(!varyOf(two).includes('accept'));
  });

  for (const [accept, version] of [
    ['application/vnd.versionary.v1+json', 1],
    ['application/vnd.versionary.v2+json', 2],
    ['application/json; version=1', 1],
    ['application/json; version=2', 2],
    ['application/json;version="2"', 2],
  ] as const) {
    it(`serves /api/users/{id} as v${version} for Accept: ${accept}, with Vary: Accept`, async () => {
      const res = await t.app.inject({ url: `/api/users/${id}`, headers: { accept } });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(json(res), version === 1 ? v1Body() : v2Body());
      assert.ok(varyOf(res).includes('accept'), `vary: ${res.headers.vary}`);
      assert.equal(res.headers.etag, `"r1.v${version}"`);
    });
  }

  it('answers the Accept-versioned collection in that version (array in v1, object in v2)', async () => {
    const one = await t.app.inject({ url: '/api/users', headers: { accept: 'application/vnd.versionary.v1+json' } });
    assert.ok(Array.isArray(json(one)));
    const two = await t.app.inject({ url: '/api/users', headers: { accept: 'application/json; version=2' } });
    assert.ok(Array.isArray(json<{ data: unknown[] }>(two).data));
    assert.ok(varyOf(one).includes('accept') && varyOf(two).includes('accept'));
  });

  it('gives the Location of a user created through Accept in the same version', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { accept: 'application/vnd.versionary.v1+json' },
      payload: { name: 'Bo' },
    });
    assert.equal(res.statusCode, 201);
    const created = json(res);
    assert.equal(res.headers.location, `/api/v1/users/${created.id}`);
    assert.ok(varyOf(res).includes('accept'));
  });

  it('adds Vary: Accept to errors of Accept-versioned requests too', async () => {
    const cases = [
      {
        method: 'GET' as const,
        url: '/api/users/999999',
        headers: { accept: 'application/json; version=2' },
        status: 404,
      },
      {
        method: 'GET' as const,
        url: '/api/users/abc',
        headers: { accept: 'application/vnd.versionary.v1+json' },
        status: 404,
      },
      {
        method: 'POST' as const,
        url: '/api/users',
        headers: { accept: 'application/vnd.versionary.v1+json' },
        payload: { email: 'x@example.com' },
        status: 400,
      },
      {
        method: 'PATCH' as const,
        url: `/api/users/${id}`,
        headers: { accept: 'application/json; version=2' },
        payload: { name: 'x' },
        status: 415,
      },
      { method: 'PUT' as const, url: '/api/users', headers: { accept: 'application/json; version=2' }, status: 405 },
      {
        method: 'GET' as const,
        url: '/api/users?limit=0',
        headers: { accept: 'application/json; version=2' },
        status: 400,
      },
      { method: 'GET' as const, url: '/api/users', headers: {}, status: 400 },
    ];
    for (const c of cases) {
      const res = await t.app.inject(c);
      assertProblem(res, { status: c.status });
      assert.ok(varyOf(res).includes('accept'), `${c.method} ${c.url}: vary is ${String(res.headers.vary)}`);
    }
  });

  it('answers 400 naming the supported versions when no version is given anywhere', async () => {
    for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }]) {
      const res = await t.app.inject({ url: '/api/users', headers });
      const problem = assertProblem(res, { status: 400, code: 'VERSION_MISSING' });
      assert.deepEqual(problem.supportedVersions, ['v1', 'v2']);
      assert.match(problem.detail, /v1, v2/);
    }
  });

  it('answers 400 for an Accept version that cannot be read', async () => {
    const res = await t.app.inject({ url: '/api/users', headers: { accept: 'application/json; version=abc' } });
    const problem = assertProblem(res, { status: 400 });
    assert.match(problem.detail, /v1, v2/);
  });

  it('answers 404 naming the supported versions for an unknown path version', async () => {
    for (const url of ['/api/v9/users', '/api/v3/users/1', '/api/v0/users']) {
      const res = await t.app.inject({ url });
      const problem = assertProblem(res, { status: 404, code: 'VERSION_UNKNOWN' });
      assert.deepEqual(problem.supportedVersions, ['v1', 'v2']);
      assert.match(problem.detail, /v1, v2/);
    }
  });

  it('answers 404 for an unknown Accept version', async () => {
    const res = await t.app.inject({ url: '/api/users', headers: { accept: 'application/vnd.versionary.v9+json' } });
    assertProblem(res, { status: 404 });
    assert.ok(varyOf(res).includes('accept'));
  });

  it('names the supported versions in the 404 for an unknown Accept version', async () => {
    const res = await t.app.inject({ url: '/api/users', headers: { accept: 'application/vnd.versionary.v9+json' } });
    const problem = assertProblem(res, { status: 404, code: 'VERSION_UNKNOWN' });
    assert.deepEqual(problem.supportedVersions, ['v1', 'v2']);
  });

  it('answers 400 when the path version and the Accept version disagree', async () => {
    for (const [url, accept] of [
      [`/api/v1/users/${id}`, 'application/vnd.versionary.v2+json'],
      ['/api/v2/users', 'application/json; version=1'],
      ['/api/v1/users', 'application/vnd.versionary.v9+json'],
    ] as const) {
      const res = await t.app.inject({ url, headers: { accept } });
      assertProblem(res, { status: 400, code: 'VERSION_CONFLICT' });
    }
  });

  it('accepts a path version with a matching Accept version', async () => {
    const res = await t.app.inject({
      url: `/api/v2/users/${id}`,
      headers: { accept: 'application/vnd.versionary.v2+json' },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res), v2Body());
  });

  it('answers 400 when Accept names two versions', async () => {
    const res = await t.app.inject({
      url: '/api/users',
      headers: { accept: 'application/vnd.versionary.v1+json, application/vnd.versionary.v2+json' },
    });
    assertProblem(res, { status: 400 });
  });

  it('answers 406 for an Accept that can never be satisfied', async () => {
    for (const [url, accept] of [
      [`/api/v1/users/${id}`, 'text/html'],
      ['/api/v2/users', 'text/html, application/xhtml+xml'],
      ['/api/v2/users', 'application/json;q=0'],
    ] as const) {
      const res = await t.app.inject({ url, headers: { accept } });
      assertProblem(res, { status: 406, code: 'NOT_ACCEPTABLE' });
    }
  });
});
