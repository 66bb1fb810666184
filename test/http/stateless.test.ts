import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { createTestApp, createUser, type TestApp } from '../support/test-app.ts';

describe('stateless', () => {
  let t: TestApp;
  let userId: number;
  before(async () => {
    t = await createTestApp();
    userId = (await createUser(t.app, { body: { name: 'S' } })).id as number;
  });
  after(() => t.close());

  it('never sets a cookie, on success or error, even when the client sends one', async () => {
    const cookie = { cookie: 'session=abc; theme=dark' };
    const requests: InjectOptions[] = [
      { url: '/' }, { url: '/healthz' }, { url: '/api/v1/openapi.json' },
      { url: '/api/v1/users' }, { url: '/api/v2/users' }, { url: `/api/v2/users/${userId}` },
      { url: '/api/users', headers: { accept: 'application/vnd.versionary.v1+json' } },
      { method: 'POST', url: '/api/v2/users', payload: { name: 'T' } },
      { method: 'PUT', url: `/api/v1/users/${userId}`, payload: { name: 'S2' } },
      { method: 'PATCH', url: `/api/v2/users/${userId}`, headers: { 'content-type': 'application/merge-patch+json' }, payload: '{"nickname":"s"}' },
      { method: 'POST', url: `/api/v2/users/${userId}/posts`, payload: { title: 't', body: 'b' } },
      { method: 'OPTIONS', url: '/api/v2/users' }, { method: 'HEAD', url: '/api/v2/users' },
      { url: '/api/users' }, { url: '/api/v9/users' }, { url: '/nowhere' }, { method: 'PUT', url: '/api/v2/users' },
      { method: 'POST', url: '/api/v2/users', payload: {} }, { url: '/api/v2/users/1', headers: { accept: 'text/html' } },
      { method: 'DELETE', url: `/api/v2/users/${userId}` },
    ];
    for (const request of requests) {
      for (const headers of [{}, cookie]) {
        const res = await t.app.inject({ ...request, headers: { ...request.headers, ...headers } });
        assert.equal(res.headers['set-cookie'], undefined, `${request.method ?? 'GET'} ${request.url}`);
        assert.ok(res.statusCode < 500, `${request.method ?? 'GET'} ${request.url}: ${res.statusCode}`);
      }
    }
  });

  it('answers the same request the same way whoever sent it before (no per-client state)', async () => {
    const id = (await createUser(t.app, { body: { name: 'Same' } })).id;
    const a = await t.app.inject({ url: `/api/v2/users/${id}`, headers: { cookie: 'session=one' }, remoteAddress: '10.0.0.1' });
    const b = await t.app.inject({ url: `/api/v2/users/${id}`, headers: { cookie: 'session=two' }, remoteAddress: '10.0.0.2' });
    assert.equal(a.body, b.body);
    assert.equal(a.headers.etag, b.headers.etag);
  });
});
