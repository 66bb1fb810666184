import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp, createUser, type TestApp } from '../support/test-app.ts';

/** A success status, or an error's status and problem code. */
type Expected = number | [number, string];

describe('stateless', () => {
  let t: TestApp;
  let userId: number;
  before(async () => {
    t = await createTestApp();
    userId = (await createUser(t.app, { body: { name: 'S' } })).id as number;
  });
  after(() => t.close());

  it('never sets a cookie, on success or error, even when the client sends one, and answers as documented', async () => {
    const cookie = { cookie: 'session=abc; theme=dark' };
    // Each request runs twice (without, then with a cookie): `expect` gives both answers, as a
    // status and, for errors, the problem code.
    const requests: Array<InjectOptions & { expect: [Expected, Expected] }> = [
      { url: '/', expect: [200, 200] },
      { url: '/healthz', expect: [200, 200] },
      { url: '/api/v1/openapi.json', expect: [200, 200] },
      { url: '/api/v1/users', expect: [200, 200] },
      { url: '/api/v2/users', expect: [200, 200] },
      { url: `/api/v2/users/${userId}`, expect: [200, 200] },
      { url: '/api/users', headers: { accept: 'application/vnd.versionary.v1+json' }, expect: [200, 200] },
      { method: 'POST', url: '/api/v2/users', payload: { name: 'T' }, expect: [201, 201] },
      { method: 'PUT', url: `/api/v1/users/${userId}`, payload: { name: 'S2' }, expect: [200, 200] },
      {
        method: 'PATCH',
        url: `/api/v2/users/${userId}`,
        headers: { 'content-type': 'application/merge-patch+json' },
        payload: '{"nickname":"s"}',
        expect: [200, 200],
      },
      { method: 'POST', url: `/api/v2/users/${userId}/posts`, payload: { title: 't', body: 'b' }, expect: [201, 201] },
      { method: 'OPTIONS', url: '/api/v2/users', expect: [204, 204] },
      { method: 'HEAD', url: '/api/v2/users', expect: [200, 200] },
      {
        url: '/api/users',
        expect: [
          [400, 'VERSION_MISSING'],
          [400, 'VERSION_MISSING'],
        ],
      },
      {
        url: '/api/v9/users',
        expect: [
          [404, 'VERSION_UNKNOWN'],
          [404, 'VERSION_UNKNOWN'],
        ],
      },
      {
        url: '/nowhere',
        expect: [
          [404, 'NOT_FOUND'],
          [404, 'NOT_FOUND'],
        ],
      },
      {
        method: 'PUT',
        url: '/api/v2/users',
        expect: [
          [405, 'METHOD_NOT_ALLOWED'],
          [405, 'METHOD_NOT_ALLOWED'],
        ],
      },
      {
        method: 'POST',
        url: '/api/v2/users',
        payload: {},
        expect: [
          [400, 'VALIDATION_FAILED'],
          [400, 'VALIDATION_FAILED'],
        ],
      },
      {
        url: '/api/v2/users/1',
        headers: { accept: 'text/html' },
        expect: [
          [406, 'NOT_ACCEPTABLE'],
          [406, 'NOT_ACCEPTABLE'],
        ],
      },
      // A repeated DELETE leaves the same state and answers 404.
      { method: 'DELETE', url: `/api/v2/users/${userId}`, expect: [204, [404, 'NOT_FOUND']] },
    ];
    for (const { expect, ...request } of requests) {
      for (const [i, headers] of [{}, cookie].entries()) {
        const res = await t.app.inject({ ...request, headers: { ...request.headers, ...headers } });
        const label = `${request.method ?? 'GET'} ${request.url} (${i ? 'with' : 'without'} a cookie)`;
        assert.equal(res.headers['set-cookie'], undefined, label);
        const want = expect[i]!;
        if (typeof want === 'number') {
          assert.equal(res.statusCode, want, `${label}: ${res.body.slice(0, 200)}`);
          if (want === 200 && request.method !== 'HEAD')
            assert.match(String(res.headers['content-type']), /^application\/json/, label);
          if (want === 204) assert.equal(res.body, '', label);
        } else {
          assertProblem(res, { status: want[0], code: want[1] });
        }
      }
    }
  });

  it('answers the same request the same way whoever sent it before (no per-client state)', async () => {
    const id = (await createUser(t.app, { body: { name: 'Same' } })).id;
    const a = await t.app.inject({
      url: `/api/v2/users/${id}`,
      headers: { cookie: 'session=one' },
      remoteAddress: '10.0.0.1',
    });
    const b = await t.app.inject({
      url: `/api/v2/users/${id}`,
      headers: { cookie: 'session=two' },
      remoteAddress: '10.0.0.2',
    });
    assert.equal(a.body, b.body);
    assert.equal(a.headers.etag, b.headers.etag);
  });
});
