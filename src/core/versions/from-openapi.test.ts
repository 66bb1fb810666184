import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from '../compat/index.ts';
import { toOpenApiDocument } from './openapi.ts';
import { bundleFromOpenApi } from './from-openapi.ts';

const doc = (paths: Record<string, unknown>, schemas: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths,
  components: { schemas },
});
const user = { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };

describe('bundleFromOpenApi', () => {
  it('reads each version from its own document, full paths or below the version, inline schemas named', () => {
    const bundle = bundleFromOpenApi({
      prefix: '/api',
      versions: [
        {
          name: 'v1',
          document: doc(
            {
              '/api/v1/users/{id}': {
                parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
                get: {
                  operationId: 'getUser',
                  responses: {
                    200: {
                      description: 'ok',
                      content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
                    },
                  },
                },
              },
            },
            { User: user },
          ),
        },
        {
          name: 'v2',
          document: doc({
            '/users': {
              post: {
                requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
                parameters: [{ name: 'dryRun', in: 'query', schema: { type: 'boolean' } }],
                responses: { 201: { description: 'made' }, default: { description: 'x' } },
              },
            },
          }),
        },
      ],
    });
    assert.deepEqual(
      bundle.versions.map((v) => v.name),
      ['v1', 'v2'],
    );
    assert.equal(bundle.latest.name, 'v2');
    const [get] = bundle.get('v1')!.operations;
    assert.deepEqual(
      { id: get!.id, method: get!.method, path: get!.path, schema: get!.responses[200]?.schema, params: get!.params },
      {
        id: 'getUser',
        method: 'GET',
        path: '/users/{id}',
        schema: 'User',
        params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      },
    );
    const [create] = bundle.get('v2')!.operations;
    assert.equal(create!.id, 'POST /users');
    assert.equal(create!.body, 'POST_users_body');
    assert.deepEqual(bundle.get('v2')!.schemas.POST_users_body, { type: 'object' });
    assert.deepEqual(Object.keys(create!.responses), ['201'], 'numeric statuses only');
    assert.deepEqual(create!.query, { type: 'object', properties: { dryRun: { type: 'boolean' } } });
  });

  it("passes bodies between versions unchanged: each version is its upstream's own", () => {
    const bundle = bundleFromOpenApi({
      prefix: '/api',
      versions: [{ name: 'v1', document: doc({ '/a': { get: { responses: { 200: { description: 'ok' } } } } }) }],
    });
    const body = { id: 1, anything: ['kept'] };
    assert.equal(bundle.migrations.responseDown({ schema: 'X', body, from: bundle.latest, to: bundle.latest }), body);
  });

  it('feeds the compatibility diff: a removed field between the versions is a breaking change', () => {
    const v1 = doc(
      {
        '/users/{id}': {
          get: {
            responses: {
              200: {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
              },
            },
          },
        },
      },
      { User: user },
    );
    const v2 = doc(
      {
        '/users/{id}': {
          get: {
            responses: {
              200: {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
              },
            },
          },
        },
      },
      { User: { ...user, properties: { id: { type: 'integer' } } } },
    );
    const bundle = bundleFromOpenApi({
      prefix: '/api',
      versions: [
        { name: 'v1', document: v1 },
        { name: 'v2', document: v2 },
      ],
    });
    const toDoc = (name: string) => toOpenApiDocument({ version: bundle.get(name)!, title: 't', basePath: '/api' });
    const { changes } = diffOpenApi({ base: toDoc('v1'), revision: toDoc('v2') });
    assert.ok(
      changes.some((c) => c.level === 'breaking'),
      JSON.stringify(changes.map((c) => c.id)),
    );
  });

  it('reports every problem of every document at once', () => {
    assert.throws(
      () =>
        bundleFromOpenApi({
          prefix: '/api',
          versions: [
            { name: 'v2', document: { swagger: '2.0', paths: {} } },
            {
              name: 'v1',
              document: doc({
                '/a': {
                  get: {
                    operationId: 'x',
                    responses: {
                      200: {
                        description: 'ok',
                        content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } },
                      },
                    },
                  },
                },
                '/b': { get: { operationId: 'x', responses: {} } },
              }),
            },
            { name: 'one', document: { openapi: '3.1.0' } },
          ],
        }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'INVALID_DEFINITION');
        for (const part of [
          'v2: is not an OpenAPI 3.0, 3.1 or 3.2 document',
          'v2: documents no operation',
          'v1 must come after v2',
          'Missing names no schema',
          'operationId "x" is used twice',
          'version name "one"',
          'one: has no "paths" object',
        ]) {
          assert.ok(error.message.includes(part), `${part} in ${error.message}`);
        }
        return true;
      },
    );
  });
});

describe('bundleFromOpenApi reads QUERY operations', () => {
  const op = { operationId: 'search', responses: { '200': { description: 'ok' } } };
  it('as query in a 3.2 document and as x-query in a 3.1 one', () => {
    const bundle = bundleFromOpenApi({
      prefix: '/api',
      versions: [
        { name: 'v1', document: { openapi: '3.1.0', paths: { '/api/v1/items': { 'x-query': op } } } },
        { name: 'v2', document: { openapi: '3.2.0', paths: { '/api/v2/items': { query: op } } } },
      ],
    });
    for (const name of ['v1', 'v2'])
      assert.deepEqual(
        bundle.get(name)?.operations.map((o) => `${o.method} ${o.path}`),
        ['QUERY /items'],
        name,
      );
  });
});
