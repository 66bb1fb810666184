import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, json, type TestApp } from '../support/test-app.ts';

type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: {
    schemas: Record<string, { type?: string; properties?: Record<string, { enum?: string[] }>; items?: unknown }>;
  };
};

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
    for (const [doc, v] of [
      [v1, 'v1'],
      [v2, 'v2'],
    ] as const) {
      const methods = (p: string) => Object.keys(doc.paths[`/api/${v}${p}`] ?? {}).sort();
      assert.deepEqual(methods('/users'), ['get', 'post']);
      assert.deepEqual(methods('/users/{id}'), ['delete', 'get', 'patch', 'put']);
      assert.deepEqual(methods('/users/{id}/posts'), ['get', 'post']);
      assert.deepEqual(methods('/users/{id}/posts/{postId}'), ['delete', 'get']);
    }
  });

  it('v1 has no email, nickname, _version or pending, and UserList is an array', () => {
    for (const word of ['email', 'nickname', '_version', 'pending'])
      assert.ok(!v1Text.includes(word), `v1 document mentions ${word}`);
    const s = v1.components.schemas;
    assert.equal(s.UserList?.type, 'array');
    assert.equal(s.PostList?.type, 'array');
    assert.deepEqual(s.User?.properties?.status?.enum, ['active', 'inactive']);
    assert.deepEqual(Object.keys(s.User?.properties ?? {}).sort(), ['id', 'name', 'status']);
    assert.deepEqual(Object.keys(s.UserInput?.properties ?? {}).sort(), ['name', 'status']);
  });

  it('v2 has email, nickname, _version, pending, and UserList is { data, meta }', () => {
    const s = v2.components.schemas;
    assert.deepEqual(Object.keys(s.User?.properties ?? {}).sort(), [
      'displayName',
      'email',
      'id',
      'name',
      'nickname',
      'status',
    ]);
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

describe('OpenAPI documents describe what the service really does', () => {
  type Op = {
    security?: Array<Record<string, string[]>>;
    'x-required-role'?: string;
    parameters: Array<{ name?: string; in?: string; $ref?: string; schema?: Record<string, unknown> }>;
    responses: Record<
      string,
      {
        headers?: Record<string, { required?: boolean }>;
        content?: Record<string, { schema: Record<string, unknown> }>;
      }
    >;
  };
  type D = {
    paths: Record<string, Record<string, Op>>;
    components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, unknown> };
  };
  let docs: Record<string, D>;
  let withJwt: D;
  before(async () => {
    const t = await createTestApp();
    docs = {
      v1: json<D>(await t.app.inject({ url: '/api/v1/openapi.json' })),
      v2: json<D>(await t.app.inject({ url: '/api/v2/openapi.json' })),
    };
    await t.close();
    const j = await createTestApp({ env: { VERSIONARY_JWT_SECRET: 'a-secret-of-at-least-32-characters!!' } });
    withJwt = json<D>(await j.app.inject({ url: '/api/v2/openapi.json' }));
    await j.close();
  });
  const ops = (d: D) =>
    Object.entries(d.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );
  // The public route (the document itself) reads no credentials.
  const resources = (d: D) => ops(d).filter((o) => (o.op.security ?? []).length > 0);

  it('declare the API key schemes, the JWT one only where JWTs are accepted, and a role on every resource operation', () => {
    assert.deepEqual(Object.keys(docs.v2!.components.securitySchemes).sort(), ['apiKey', 'apiKeyHeader']);
    assert.deepEqual(Object.keys(withJwt.components.securitySchemes).sort(), ['apiKey', 'apiKeyHeader', 'jwt']);
    for (const { method, op } of resources(docs.v2!)) {
      // Any scheme; the role in `x-required-role`, since a non-OAuth scheme cannot declare it as a scope.
      assert.deepEqual(op.security, [{ apiKey: [] }, { apiKeyHeader: [] }]);
      assert.equal(op['x-required-role'], method === 'get' ? 'read' : 'write');
      for (const status of ['401', '403', '429', '500'])
        assert.ok(op.responses[status]?.content?.['application/problem+json'], `${method} ${status}`);
      assert.equal(op.responses['429']!.headers!['Retry-After']!.required, true);
    }
    assert.deepEqual(docs.v2!.paths['/api/v2/openapi.json']!.get!.security, []);
  });

  it('type path ids like User.id, and limit as a bounded integer', () => {
    for (const d of [docs.v1!, docs.v2!]) {
      const user = d.components.schemas.User!.properties as Record<string, Record<string, unknown>>;
      for (const { op } of resources(d)) {
        for (const p of op.parameters.filter((x) => x.in === 'path')) assert.equal(p.schema!.type, user.id!.type);
        const limit = op.parameters.find((x) => x.name === 'limit');
        if (limit)
          assert.deepEqual([limit.schema!.type, limit.schema!.minimum, limit.schema!.maximum], ['integer', 1, 100]);
      }
    }
  });

  it('keep PageMeta out of v1, where nothing uses it', () => {
    assert.equal(docs.v1!.components.schemas.PageMeta, undefined);
    assert.ok(docs.v2!.components.schemas.PageMeta);
  });

  it('document partial responses with a schema whose members are all optional', () => {
    const get = docs.v2!.paths['/api/v2/users/{id}']!.get!;
    assert.deepEqual(get.responses['200']!.content!['application/json']!.schema, {
      anyOf: [{ $ref: '#/components/schemas/UserDetail' }, { $ref: '#/components/schemas/UserDetailPartial' }],
    });
    assert.equal(docs.v2!.components.schemas.UserDetailPartial!.required, undefined);
    const list = docs.v1!.components.schemas.UserListPartial!;
    assert.deepEqual(list.items, { $ref: '#/components/schemas/UserPartial' });
  });

  it('carry deprecation headers on the deprecated version only, and the conditional and idempotency headers where they apply', () => {
    for (const { op } of resources(docs.v1!)) {
      const success = Object.keys(op.responses).find((s) => /^2/.test(s))!;
      assert.equal(op.responses[success]!.headers!.Deprecation!.required, true);
      assert.ok(op.responses[success]!.headers!.Warning);
    }
    for (const { op } of resources(docs.v2!))
      for (const r of Object.values(op.responses)) assert.equal(r.headers?.Deprecation, undefined);
    const refs = (path: string, method: string) =>
      docs.v2!.paths[path]![method]!.parameters.map((p) => p.$ref).filter(Boolean);
    assert.deepEqual(refs('/api/v2/users/{id}', 'put'), ['#/components/parameters/IfMatch']);
    assert.deepEqual(refs('/api/v2/users/{id}', 'get'), ['#/components/parameters/IfNoneMatch']);
    assert.deepEqual(refs('/api/v2/users', 'post'), ['#/components/parameters/IdempotencyKey']);
    const created = docs.v2!.paths['/api/v2/users']!.post!.responses['201']!.headers!;
    assert.equal(created.Location!.required, true);
    assert.ok(created['Idempotent-Replayed']);
    assert.equal(docs.v2!.paths['/api/v2/users']!.get!.responses['200']!.headers!.ETag!.required, true);
    assert.ok(docs.v2!.paths['/api/v2/users']!.get!.responses['304']);
  });
});
