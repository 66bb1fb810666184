import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, json, type TestApp } from '../support/test-app.ts';

type Doc = { openapi: string; info: { version: string }; paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { schemas: Record<string, { type?: string; properties?: Record<string, { enum?: string[] }>; items?: unknown }> } };

describe('OpenAPI documents', () => {
  let t: TestApp;
  let v1: Doc;
  let v2: Doc;
  let v1Text: string;
  before(async () => {
    t = await createTestApp();
    const one = await t.app.inject({ url: '/api/v1/openapi.json' });
    const two = await t.app.inject({ url: '/api/v2/openapi.json' });
    assert.equal(one.statusCode, 200);
    assert.equal(two.statusCode, 200);
    assert.match(String(one.headers['content-type']), /^application\/json/);
    v1 = json<Doc>(one);
    v2 = json<Doc>(two);
    v1Text = one.body;
  });
  after(() => t.close());

  it('are OpenAPI 3.1 documents of their own version', () => {
    assert.equal(v1.openapi, '3.1.0');
    assert.equal(v2.openapi, '3.1.0');
    assert.equal(v1.info.version, 'v1');
    assert.equal(v2.info.version, 'v2');
    assert.ok(Object.keys(v1.paths).every((p) => p.startsWith('/api/v1/')));
    assert.ok(Object.keys(v2.paths).every((p) => p.startsWith('/api/v2/')));
  });

  it('document every route with its methods', () => {
    for (const [doc, v] of [[v1, 'v1'], [v2, 'v2']] as const) {
      const methods = (p: string) => Object.keys(doc.paths[`/api/${v}${p}`] ?? {}).sort();
      assert.deepEqual(methods('/users'), ['get', 'post']);
      assert.deepEqual(methods('/users/{id}'), ['delete', 'get', 'patch', 'put']);
      assert.deepEqual(methods('/users/{id}/posts'), ['get', 'post']);
      assert.deepEqual(methods('/users/{id}/posts/{postId}'), ['delete', 'get']);
    }
  });

  it('v1 has no email, nickname, _version or pending, and UserList is an array', () => {
    for (const word of ['email', 'nickname', '_version', 'pending']) assert.ok(!v1Text.includes(word), `v1 document mentions ${word}`);
    const s = v1.components.schemas;
    assert.equal(s.UserList?.type, 'array');
    assert.equal(s.PostList?.type, 'array');
    assert.deepEqual(s.User?.properties?.status?.enum, ['active', 'inactive']);
    assert.deepEqual(Object.keys(s.User?.properties ?? {}).sort(), ['id', 'name', 'status']);
    assert.deepEqual(Object.keys(s.UserInput?.properties ?? {}).sort(), ['name', 'status']);
  });

  it('v2 has email, nickname, _version, pending, and UserList is { data, meta }', () => {
    const s = v2.components.schemas;
    assert.deepEqual(Object.keys(s.User?.properties ?? {}).sort(), ['email', 'id', 'name', 'nickname', 'status']);
    assert.ok(s.UserDetail?.properties?._version);
    assert.ok(s.UserInput?.properties?.email && s.UserInput.properties.nickname);
    assert.deepEqual(s.User?.properties?.status?.enum, ['active', 'inactive', 'pending']);
    assert.equal(s.UserList?.type, 'object');
    assert.deepEqual(Object.keys(s.UserList?.properties ?? {}).sort(), ['data', 'meta']);
  });

  it('document errors as problem details', () => {
    const get = v2.paths['/api/v2/users/{id}']?.get;
    assert.ok(get);
    assert.ok(JSON.stringify(get.responses['404']).includes('application/problem+json'));
    assert.ok(v2.components.schemas.Problem);
  });
});
