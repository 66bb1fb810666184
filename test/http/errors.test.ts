import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import type { ResourceStores } from '../../src/kernel/ports/index.ts';
import { assertFieldErrors, assertProblem } from '../support/assertions.ts';
import { createTestApp, createUser, json, snapshotTables, type TestApp } from '../support/test-app.ts';

const jsonType = { 'content-type': 'application/json' };
const mergePatch = { 'content-type': 'application/merge-patch+json' };

describe('errors are problem details', () => {
  let t: TestApp;
  let userId: number;
  let postId: number;
  before(async () => {
    t = await createTestApp();
    userId = (await createUser(t.app, { body: { name: 'E' } })).id as number;
    postId = json(
      await t.app.inject({ method: 'POST', url: `/api/v2/users/${userId}/posts`, payload: { title: 't', body: 'b' } }),
    ).id as number;
  });
  after(() => t.close());

  it('from every route of both versions and from unknown routes', async () => {
    const cases: Array<InjectOptions & { status: number }> = [];
    for (const v of ['v1', 'v2']) {
      cases.push(
        { method: 'GET', url: `/api/${v}/users?limit=0`, status: 400 },
        { method: 'POST', url: `/api/${v}/users`, headers: jsonType, payload: '{}', status: 400 },
        { method: 'GET', url: `/api/${v}/users/999999`, status: 404 },
        { method: 'PUT', url: `/api/${v}/users/999999`, headers: jsonType, payload: '{"name":"x"}', status: 404 },
        { method: 'PATCH', url: `/api/${v}/users/999999`, headers: mergePatch, payload: '{}', status: 404 },
        { method: 'DELETE', url: `/api/${v}/users/999999`, status: 404 },
        { method: 'GET', url: `/api/${v}/users/999999/posts`, status: 404 },
        { method: 'POST', url: `/api/${v}/users/${userId}/posts`, headers: jsonType, payload: '{}', status: 400 },
        { method: 'GET', url: `/api/${v}/users/${userId}/posts/999999`, status: 404 },
        { method: 'DELETE', url: `/api/${v}/users/${userId}/posts/999999`, status: 404 },
        { method: 'GET', url: `/api/${v}/nothing-here`, status: 404 },
        { method: 'GET', url: `/api/${v}/users/${userId}/posts/${postId}/comments`, status: 404 },
        { method: 'GET', url: `/api/${v}/users/${userId}`, headers: { accept: 'text/html' }, status: 406 },
      );
    }
    cases.push(
      { method: 'GET', url: '/nowhere', status: 404 },
      { method: 'GET', url: '/api', status: 404 },
      // A route that exists, asked with a method it lacks: 405 with `Allow` (RFC 9110), not 404.
      { method: 'POST', url: '/healthz', status: 405 },
      { method: 'GET', url: '/problems/no-such-problem', status: 404 },
      { method: 'GET', url: '/api/v7/users', status: 404 },
      { method: 'GET', url: '/api/users', status: 400 },
    );
    for (const c of cases) {
      const res = await t.app.inject(c);
      assertProblem(res, { status: c.status });
    }
  });

  it('serves a readable page for a problem type', async () => {
    const problem = assertProblem(await t.app.inject({ url: '/api/v2/users/999999' }), { status: 404 });
    const page = await t.app.inject({ url: problem.type });
    assert.equal(page.statusCode, 200);
    assert.equal(json(page).code, 'NOT_FOUND');
  });

  it('answers 400 for invalid JSON', async () => {
    for (const payload of ['{', '{"name": "x",}', 'undefined', "{'name':'x'}", '{"name":"x"}garbage']) {
      assertProblem(await t.app.inject({ method: 'POST', url: '/api/v2/users', headers: jsonType, payload }), {
        status: 400,
        code: 'MALFORMED_REQUEST',
      });
    }
    assertProblem(
      await t.app.inject({ method: 'PATCH', url: `/api/v2/users/${userId}`, headers: mergePatch, payload: '{"name":' }),
      { status: 400 },
    );
  });

  it('answers 400 for an empty body', async () => {
    assertProblem(await t.app.inject({ method: 'POST', url: '/api/v2/users', headers: jsonType, payload: '' }), {
      status: 400,
    });
  });

  it('answers 400 for a body that is not an object', async () => {
    for (const payload of ['[]', '[{"name":"x"}]', '"x"', '1', 'true', 'null']) {
      assertFieldErrors(
        await t.app.inject({ method: 'POST', url: '/api/v1/users', headers: jsonType, payload }),
        '/body',
      );
      assertFieldErrors(
        await t.app.inject({ method: 'PATCH', url: `/api/v2/users/${userId}`, headers: mergePatch, payload }),
        '/body',
      );
    }
  });

  it('answers 400 with field errors for missing and wrong-typed fields, listing all of them', async () => {
    const problem = assertFieldErrors(
      await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { email: 5, status: true, nickname: '' } }),
      '/body/name',
    );
    const pointers = problem.errors!.map((e) => e.pointer);
    for (const p of ['/body/name', '/body/email', '/body/status', '/body/nickname'])
      assert.ok(pointers.includes(p), `${p} in ${pointers.join(' ')}`);
    assertFieldErrors(
      await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: ['x'] } }),
      '/body/name',
    );
    assertFieldErrors(
      await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: 'x'.repeat(201) } }),
      '/body/name',
    );
    assertFieldErrors(
      await t.app.inject({ method: 'POST', url: `/api/v2/users/${userId}/posts`, payload: { title: 1, body: null } }),
      '/body/title',
    );
  });

  it('answers 415 for a wrong Content-Type', async () => {
    for (const type of [
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/merge-patch+json',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { 'content-type': type },
        payload: '{"name":"x"}',
      });
      assertProblem(res, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    assertProblem(await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: '{"name":"x"}' }), {
      status: 415,
    });
    assertProblem(
      await t.app.inject({
        method: 'PUT',
        url: `/api/v2/users/${userId}`,
        headers: mergePatch,
        payload: '{"name":"x"}',
      }),
      { status: 415 },
    );
    assertProblem(
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/${userId}/posts`,
        headers: { 'content-type': 'text/plain' },
        payload: 'hi',
      }),
      { status: 415 },
    );
  });

  it('accepts application/json with a charset', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: '{"name":"Charset"}',
    });
    assert.equal(res.statusCode, 201);
  });

  it('answers 413 for a body over 1 MiB, and stores nothing', async () => {
    const before = await snapshotTables(t.db);
    const big = JSON.stringify({ name: 'x', nickname: 'y'.repeat(1024 * 1024) });
    assertProblem(await t.app.inject({ method: 'POST', url: '/api/v2/users', headers: jsonType, payload: big }), {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
    assertProblem(
      await t.app.inject({ method: 'PATCH', url: `/api/v2/users/${userId}`, headers: mergePatch, payload: big }),
      { status: 413 },
    );
    assert.equal(await snapshotTables(t.db), before);
    const under = JSON.stringify({ title: 't', body: 'z'.repeat(20000) });
    assert.equal(
      (await t.app.inject({ method: 'POST', url: `/api/v2/users/${userId}/posts`, headers: jsonType, payload: under }))
        .statusCode,
      201,
    );
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['0', '-1', '1.0', '0x1', '1e2', 'abc', '%F0%9F%98%80', ' 1', '+1', '9'.repeat(16)]) {
      assertProblem(await t.app.inject({ url: `/api/v2/users/${id}` }), { status: 404 });
      assertProblem(await t.app.inject({ url: `/api/v1/users/${userId}/posts/${id}` }), { status: 404 });
    }
  });

  // A path that servers could read differently (an encoded control, a matrix parameter, a bad
  // escape) is refused before routing: what is judged is what is served (docs/gateway.md, Security).
  it("refuses an ambiguous or badly percent-encoded id as an invalid URI, the spec's 404", async () => {
    for (const id of ['%00', '1;drop', '%E0%A4%A', '%zz']) {
      assertProblem(await t.app.inject({ url: `/api/v2/users/${id}` }), { status: 404, code: 'NOT_FOUND' });
      assertProblem(await t.app.inject({ url: `/api/v1/users/${userId}/posts/${id}` }), {
        status: 404,
        code: 'NOT_FOUND',
      });
    }
  });

  it('answers a very long id as a problem', async () => {
    // Ids are positive integers that fit the store: a longer one names no user.
    const res = await t.app.inject({ url: `/api/v2/users/${'9'.repeat(500)}` });
    assertProblem(res, { status: 404, code: 'NOT_FOUND' });
  });

  it('answers 406 for an OpenAPI document requested as HTML only', async () => {
    assertProblem(await t.app.inject({ url: '/api/v1/openapi.json', headers: { accept: 'text/html' } }), {
      status: 406,
    });
  });

  it('answers 406 for an Accept that only admits HTML', async () => {
    for (const url of ['/api/v2/users', `/api/v1/users/${userId}`, `/api/v2/users/${userId}/posts`]) {
      assertProblem(await t.app.inject({ url, headers: { accept: 'text/html' } }), {
        status: 406,
        code: 'NOT_ACCEPTABLE',
      });
    }
  });

  it('answers 400 for a body nested deeper than the parser reads (a 500 before)', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    for (const payload of [deep, `{"name":"x","a":${deep}}`]) {
      assertProblem(
        await t.app.inject({ method: 'PATCH', url: `/api/v1/users/${userId}`, headers: jsonType, payload }),
        { status: 400 },
      );
    }
  });

  describe('prototype pollution', () => {
    const payloads = [
      '{"name":"x","__proto__":{"polluted":"yes"}}',
      '{"__proto__":{"polluted":"yes"},"name":"x"}',
      '{"name":"x","constructor":{"prototype":{"polluted":"yes"}}}',
      '{"name":"x","\\u005f_proto__":{"polluted":"yes"}}',
      '{"name":"x","status":"active","nested":{"__proto__":{"polluted":"yes"}}}',
      '{"name":"x","constructor":"yes"}',
      '{"name":"x","__proto__":null}',
    ];

    it('rejects bodies with __proto__ or constructor keys with 4xx and stores nothing, on every write route', async () => {
      const before = await snapshotTables(t.db);
      const targets: Array<{ method: 'POST' | 'PUT' | 'PATCH'; url: string; headers: Record<string, string> }> = [];
      for (const v of ['v1', 'v2']) {
        targets.push(
          { method: 'POST', url: `/api/${v}/users`, headers: jsonType },
          { method: 'PUT', url: `/api/${v}/users/${userId}`, headers: jsonType },
          { method: 'PATCH', url: `/api/${v}/users/${userId}`, headers: mergePatch },
          { method: 'POST', url: `/api/${v}/users/${userId}/posts`, headers: jsonType },
        );
      }
      for (const target of targets) {
        for (const payload of payloads) {
          const res = await t.app.inject({ ...target, payload });
          assert.ok(
            res.statusCode >= 400 && res.statusCode < 500,
            `${target.method} ${target.url} ${payload}: ${res.statusCode}`,
          );
          assertProblem(res, { status: res.statusCode });
        }
      }
      assert.equal(await snapshotTables(t.db), before);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
    });

    it('leaves the served representations unpolluted', async () => {
      const body = json(await t.app.inject({ url: `/api/v2/users/${userId}` }));
      assert.equal(Object.getPrototypeOf(body), Object.prototype);
      assert.equal(body.polluted, undefined);
    });
  });
});

describe('a failing storage yields a 500 without internals', () => {
  const secret = 'SQLITE_ERROR: no such column: users.password_hash in SELECT * FROM users WHERE id = ?';
  const failing = (storage: ResourceStores): ResourceStores => {
    const fail = async (): Promise<never> => {
      const error = new Error(secret);
      error.stack = `Error: ${secret}\n    at Object.get (/srv/src/storage/kysely/user-store.ts:25:7)`;
      throw error;
    };
    return { ...storage, users: { ...storage.users, get: fail, list: fail } };
  };
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ wrapResources: failing });
  });
  after(() => t.close());

  for (const [url, accept] of [
    ['/api/v1/users/1', undefined],
    ['/api/v2/users', undefined],
    ['/api/users/1/posts', 'application/vnd.versionary.v2+json'],
  ]) {
    it(`GET ${url} answers 500 as a problem without a stack trace or SQL`, async () => {
      const res = await t.app.inject({ url: url!, headers: accept ? { accept } : {} });
      const problem = assertProblem(res, { status: 500, code: 'INTERNAL' });
      for (const leak of ['SELECT', 'SQLITE', 'users.password_hash', 'user-store.ts', '    at ', 'stack']) {
        assert.ok(!res.body.includes(leak), `500 body leaks "${leak}": ${res.body}`);
      }
      assert.equal(Object.hasOwn(problem, 'stack'), false);
    });
  }
});
