import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders, createTestApp, createUser, type InjectOptions, type TestApp } from '../support/test-app.ts';

describe('cache and sniffing headers', () => {
  let t: TestApp;
  let id: number;
  before(async () => {
    t = await createTestApp();
    id = (await createUser(t.app, { body: { name: 'H', email: 'h@example.com' } })).id as number;
  });
  after(() => t.close());

  it('make every answer behind credentials no-store, the management API above all', async () => {
    for (const url of [
      '/api/v1/users',
      '/api/v2/users',
      `/api/v2/users/${id}`,
      `/api/users/${id}`,
      `/api/v2/users/${id}/posts`,
    ]) {
      const headers = url.startsWith('/api/users') ? { accept: 'application/vnd.versionary.v2+json' } : {};
      const res = await t.app.inject({ url, headers });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'no-store', url);
      const head = await t.app.inject({ method: 'HEAD', url, headers });
      assert.equal(head.headers['cache-control'], 'no-store', `HEAD ${url}`);
      const notModified = await t.app.inject({
        url,
        headers: { ...headers, 'if-none-match': String(res.headers.etag) },
      });
      assert.equal(notModified.statusCode, 304, url);
      assert.equal(notModified.headers['cache-control'], 'no-store', `304 of ${url}`);
    }
    for (const url of [
      '/admin/v1/api-keys',
      '/admin/v1/versions',
      '/admin/v1/versions/v1',
      '/admin/v1/versions/v1/calls',
    ]) {
      const res = await t.app.inject({ url, headers: adminHeaders });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'no-store', url);
    }
  });

  it('let public documents be cached, with revalidation', async () => {
    for (const url of [
      '/api/v1/openapi.json',
      '/api/v2/openapi.json',
      '/api/versions',
      '/api/versions/v1/migration-guide',
      '/',
      '/problems/not-found',
    ]) {
      const res = await t.app.inject({ url, headers: { authorization: '' } });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'private, no-cache', url);
    }
  });

  it('send X-Content-Type-Options: nosniff on every response, errors and parser failures included', async () => {
    const requests: InjectOptions[] = [
      { url: '/api/v2/users' },
      { url: `/api/v2/users/${id}`, headers: { 'if-none-match': '*' } },
      { url: '/api/v2/users', headers: { authorization: '' } },
      { url: '/api/v2/users', headers: { authorization: 'Bearer nope' } },
      { url: '/nowhere' },
      { url: '/api/v9/users' },
      { url: '/api/users' },
      { url: '/api/v2/users/%zz' },
      { method: 'DELETE', url: '/api/v2/users' },
      { method: 'OPTIONS', url: '/api/v2/users' },
      { method: 'POST', url: '/api/v2/users', headers: { 'content-type': 'application/json' }, payload: '{"name":' },
      { method: 'POST', url: '/api/v2/users', headers: { 'content-type': 'application/json' }, payload: '' },
      { method: 'POST', url: '/api/v2/users', headers: { 'content-type': 'text/plain' }, payload: 'x' },
      {
        method: 'POST',
        url: '/api/v2/users',
        headers: { 'content-type': 'application/json' },
        payload: 'x'.repeat(2 * 1024 * 1024),
      },
      { method: 'POST', url: '/api/v2/users', payload: { name: 'ok' } },
      { url: '/healthz' },
      { url: '/api/v1/openapi.json' },
    ];
    for (const request of requests) {
      const res = await t.app.inject(request);
      assert.equal(
        res.headers['x-content-type-options'],
        'nosniff',
        `${request.method ?? 'GET'} ${request.url} (${res.statusCode})`,
      );
    }
  });
});
