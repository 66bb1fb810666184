import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp, createUser, json, type TestApp } from '../support/test-app.ts';

describe('methods: HEAD, OPTIONS and 405', () => {
  let t: TestApp;
  let userId: number;
  let postId: number;
  before(async () => {
    t = await createTestApp();
    userId = (await createUser(t.app, { body: { name: 'H', email: 'h@example.com' } })).id as number;
    postId = json(
      await t.app.inject({ method: 'POST', url: `/api/v2/users/${userId}/posts`, payload: { title: 't', body: 'b' } }),
    ).id as number;
  });
  after(() => t.close());

  const routes = () => [
    { path: '/users', allow: ['GET', 'POST', 'HEAD', 'OPTIONS'] },
    { path: `/users/${userId}`, allow: ['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] },
    { path: `/users/${userId}/posts`, allow: ['GET', 'POST', 'HEAD', 'OPTIONS'] },
    { path: `/users/${userId}/posts/${postId}`, allow: ['GET', 'DELETE', 'HEAD', 'OPTIONS'] },
  ];
  const allowOf = (value: unknown) =>
    String(value)
      .split(',')
      .map((m) => m.trim())
      .sort();

  it('answers HEAD like GET, without a body, on every GET route', async () => {
    const urls = [
      ...routes().flatMap((r) => [`/api/v1${r.path}`, `/api/v2${r.path}`]),
      '/api/v1/openapi.json',
      '/api/v2/openapi.json',
      '/healthz',
      '/',
    ];
    for (const url of urls) {
      const get = await t.app.inject({ url });
      const head = await t.app.inject({ method: 'HEAD', url });
      assert.equal(get.statusCode, 200, url);
      assert.equal(head.statusCode, 200, url);
      assert.equal(head.body, '', url);
      assert.equal(head.headers['content-type'], get.headers['content-type'], url);
      assert.equal(head.headers['content-length'], get.headers['content-length'], url);
      assert.equal(head.headers.etag, get.headers.etag, url);
      assert.equal(head.headers['cache-control'], get.headers['cache-control'], url);
    }
  });

  it('answers HEAD through Accept versioning and on errors', async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/users/${userId}`,
      headers: { accept: 'application/vnd.versionary.v1+json' },
    });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers.etag, '"r1.v1"');
    const missing = await t.app.inject({ method: 'HEAD', url: '/api/v2/users/999999' });
    assert.equal(missing.statusCode, 404);
    assert.match(String(missing.headers['content-type']), /^application\/problem\+json/);
  });

  it('answers OPTIONS with 204 and Allow on every route of both versions', async () => {
    for (const r of routes()) {
      for (const v of ['v1', 'v2']) {
        const res = await t.app.inject({ method: 'OPTIONS', url: `/api/${v}${r.path}` });
        assert.equal(res.statusCode, 204, r.path);
        assert.equal(res.body, '');
        assert.deepEqual(allowOf(res.headers.allow), [...r.allow].sort(), r.path);
      }
    }
    const viaAccept = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/users',
      headers: { accept: 'application/json; version=1' },
    });
    assert.equal(viaAccept.statusCode, 204);
    assert.deepEqual(allowOf(viaAccept.headers.allow), ['GET', 'HEAD', 'OPTIONS', 'POST']);
  });

  it('answers 405 with Allow for every other method, changing nothing', async () => {
    for (const r of routes()) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'QUERY'] as const) {
        if (r.allow.includes(method)) continue;
        for (const v of ['v1', 'v2']) {
          // QUERY without a body too: Fastify asks for its Content-Type before any handler runs.
          const payloads =
            method === 'GET' || method === 'TRACE'
              ? [undefined]
              : method === 'QUERY'
                ? [undefined, { name: 'x' }]
                : [{ name: 'x' }];
          for (const payload of payloads) {
            const res = await t.app.inject({ method: method as 'GET', url: `/api/${v}${r.path}`, payload });
            assertProblem(res, { status: 405, code: 'METHOD_NOT_ALLOWED' });
            assert.deepEqual(allowOf(res.headers.allow), [...r.allow].sort(), `${method} ${r.path}`);
          }
        }
      }
    }
    const viaAccept = await t.app.inject({
      method: 'TRACE' as 'GET',
      url: '/api/users',
      headers: { accept: 'application/json; version=2' },
    });
    assertProblem(viaAccept, { status: 405, code: 'METHOD_NOT_ALLOWED' });
    assert.equal((await t.app.inject({ url: `/api/v2/users/${userId}` })).statusCode, 200);
    assert.equal((await t.app.inject({ url: `/api/v2/users/${userId}/posts/${postId}` })).statusCode, 200);
  });
});
