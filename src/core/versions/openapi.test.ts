import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineVersions } from './define-versions.ts';
import { toOpenApiDocument } from './openapi.ts';
import { ref } from './schema-walk.ts';

const bundle = defineVersions({
  head: {
    schemas: {
      Item: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
      },
      ItemList: { type: 'array', items: ref('Item') },
      Orphan: { type: 'object' },
    },
    operations: [
      {
        id: 'items.list',
        method: 'GET',
        path: '/items',
        summary: 'List',
        partial: 'Item',
        responses: { 200: { description: 'ok', schema: 'ItemList' } },
      },
      {
        id: 'items.get',
        method: 'GET',
        path: '/items/{id}',
        summary: 'Get',
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } },
        responses: { 200: { description: 'ok', schema: 'Item' } },
      },
    ],
  },
  versions: [{ name: 'v1' }],
});
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters: Array<{ schema: unknown }>;
        responses: Record<string, { content: Record<string, { schema: unknown }> }>;
      }
    >
  >;
  components: { schemas: Record<string, Record<string, unknown>> };
};

describe('toOpenApiDocument', () => {
  it('emits only the schemas operations reach', () => {
    const doc = toOpenApiDocument({ version: bundle.get('v1')!, title: 't', basePath: '/v1' }) as unknown as Doc;
    assert.deepEqual(Object.keys(doc.components.schemas).sort(), ['Item', 'ItemList']);
  });

  it('types path parameters from the declaration, and strings otherwise', () => {
    const doc = toOpenApiDocument({ version: bundle.get('v1')!, title: 't', basePath: '/v1' }) as unknown as Doc;
    assert.deepEqual(doc.paths['/v1/items/{id}']!.get!.parameters[0]!.schema, { type: 'integer', minimum: 1 });
  });

  it('with partialResponses, documents the fields projection as a twin schema without required members', () => {
    const doc = toOpenApiDocument({
      version: bundle.get('v1')!,
      title: 't',
      basePath: '/v1',
      partialResponses: true,
    }) as unknown as Doc;
    assert.deepEqual(doc.paths['/v1/items']!.get!.responses['200']!.content['application/json']!.schema, {
      anyOf: [ref('ItemList'), ref('ItemListPartial')],
    });
    assert.deepEqual(doc.components.schemas.ItemListPartial, { type: 'array', items: ref('ItemPartial') });
    assert.equal(doc.components.schemas.ItemPartial!.required, undefined);
    assert.deepEqual(doc.components.schemas.Item!.required, ['id', 'name']);
    // Without a partial schema, an operation's body is the schema itself.
    assert.deepEqual(
      doc.paths['/v1/items/{id}']!.get!.responses['200']!.content['application/json']!.schema,
      ref('Item'),
    );
  });
});

describe('toOpenApiDocument in OpenAPI 3.1 and 3.2', () => {
  const withQuery = defineVersions({
    head: {
      schemas: { Search: { type: 'object', properties: { q: { type: 'string' } } } },
      operations: [
        {
          id: 'items.search',
          method: 'QUERY',
          path: '/items',
          summary: 'Search',
          body: 'Search',
          responses: { 200: { description: 'ok' } },
        },
      ],
    },
    versions: [{ name: 'v1' }],
  }).get('v1')!;
  const components = {
    securitySchemes: {
      legacyKey: { type: 'apiKey', in: 'header', name: 'X-Key', deprecated: true },
      bearer: { type: 'http', scheme: 'bearer' },
    },
  };
  const build = (openapiVersion?: '3.1' | '3.2') =>
    toOpenApiDocument({
      version: withQuery,
      title: 't',
      basePath: '/v1',
      components,
      ...(openapiVersion ? { openapiVersion } : {}),
    }) as { openapi: string; paths: Record<string, Record<string, unknown>>; components: typeof components };

  it('writes 3.1 by default: QUERY as x-query, a deprecated scheme as x-deprecated', () => {
    const doc = build();
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(Object.keys(doc.paths['/v1/items']!), ['x-query']);
    assert.deepEqual(doc.components.securitySchemes.legacyKey, {
      type: 'apiKey',
      in: 'header',
      name: 'X-Key',
      'x-deprecated': true,
    });
    assert.deepEqual(doc.components.securitySchemes.bearer, components.securitySchemes.bearer);
  });

  it('writes 3.2 on request: QUERY under query, the scheme marked deprecated', () => {
    const doc = build('3.2');
    assert.equal(doc.openapi, '3.2.0');
    assert.deepEqual(Object.keys(doc.paths['/v1/items']!), ['query']);
    assert.equal(doc.components.securitySchemes.legacyKey.deprecated, true);
  });
});
