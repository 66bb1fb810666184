import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ElementDeprecation } from '../lifecycle/element-deprecation.ts';
import { defineVersions } from './define-versions.ts';
import { toOpenApiDocument } from './openapi.ts';
import { ref } from './schema-walk.ts';

const bundle = defineVersions({
  head: {
    schemas: {
      Item: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'integer' },
          nickname: { type: 'string', description: 'What friends call it.' },
          displayName: { type: 'string' },
        },
      },
      ItemList: { type: 'array', items: ref('Item') },
    },
    operations: [
      {
        id: 'items.list',
        method: 'GET',
        path: '/items',
        summary: 'List',
        partial: 'Item',
        query: {
          type: 'object',
          properties: { order: { type: 'string', description: 'Old ordering.' }, sort: { type: 'string' } },
        },
        responses: { 200: { description: 'ok', schema: 'ItemList' } },
      },
    ],
  },
  versions: [{ name: 'v1' }],
});
const sunsetAt = Date.UTC(2027, 8, 1);
const field: ElementDeprecation = {
  kind: 'field',
  version: 'v1',
  element: 'Item.nickname',
  schema: 'Item',
  field: 'nickname',
  deprecatedAt: Date.UTC(2026, 8, 1),
  sunsetAt,
  replacement: 'displayName',
};
const parameter: ElementDeprecation = {
  kind: 'parameter',
  version: 'v1',
  element: 'GET /items?order',
  method: 'GET',
  path: '/items',
  parameter: 'order',
  deprecatedAt: Date.UTC(2026, 8, 1),
  sunsetAt,
  replacement: 'sort',
};
type Doc = {
  paths: Record<string, Record<string, { parameters: Array<Record<string, unknown>> }>>;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
};
const build = (deprecations: readonly ElementDeprecation[], now = sunsetAt - 1, partialResponses = false) =>
  toOpenApiDocument({
    version: bundle.get('v1')!,
    title: 't',
    basePath: '/api/v1',
    partialResponses,
    elements: { deprecations, now },
  }) as unknown as Doc;
const query = (doc: Doc, name: string) => doc.paths['/api/v1/items']!.get!.parameters.find((p) => p.name === name);

describe('toOpenApiDocument with element deprecations', () => {
  it('marks a deprecated field with its sunset and replacement, after its own description', () => {
    const doc = build([field]);
    assert.deepEqual(doc.components.schemas.Item!.properties.nickname, {
      type: 'string',
      deprecated: true,
      'x-sunset': '2027-09-01T00:00:00.000Z',
      'x-speakeasy-deprecation-message':
        'Deprecated since 2026-09-01; sunset 2027-09-01 (removed after). Use `displayName` instead.',
      'x-speakeasy-deprecation-replacement': 'displayName',
      'x-stainless-deprecation-message':
        'Deprecated since 2026-09-01; sunset 2027-09-01 (removed after). Use `displayName` instead.',
      'x-fern-availability': 'deprecated',
      description: 'What friends call it. Deprecated: use `displayName` instead. Sunset: 2027-09-01T00:00:00.000Z.',
    });
    assert.deepEqual(doc.components.schemas.Item!.properties.displayName, { type: 'string' });
    // The bundle's own schema is untouched: the next document starts clean.
    assert.equal(
      (bundle.get('v1')!.schemas.Item!.properties as Doc['components']['schemas'][string]['properties']).nickname!
        .deprecated,
      undefined,
    );
  });

  it('keeps the field, still deprecated, after its sunset, and marks the `fields` twin too', () => {
    const doc = build([field], sunsetAt + 1, true);
    assert.equal(doc.components.schemas.Item!.properties.nickname!.deprecated, true);
    assert.equal(doc.components.schemas.ItemPartial!.properties.nickname!.deprecated, true);
  });

  it('marks a deprecated query parameter, and leaves it out once its sunset has passed', () => {
    const before = query(build([parameter]), 'order')!;
    assert.equal(before.deprecated, true);
    assert.equal(before['x-sunset'], '2027-09-01T00:00:00.000Z');
    assert.equal(before.description, 'Old ordering. Deprecated: use `sort` instead. Sunset: 2027-09-01T00:00:00.000Z.');
    assert.equal(query(build([parameter]), 'sort')!.deprecated, undefined);
    // The element's own guide, else its version's.
    const guided = query(build([{ ...parameter, migrationUrl: 'https://docs.example/sort' }]), 'order')!;
    assert.equal(
      guided['x-stainless-deprecation-message'],
      'Deprecated since 2026-09-01; sunset 2027-09-01 (removed after). Use `sort` instead. Guide: https://docs.example/sort',
    );
    assert.equal(guided['x-speakeasy-deprecation-replacement'], 'sort');
    const versionGuide = toOpenApiDocument({
      version: bundle.get('v1')!,
      title: 't',
      basePath: '/api/v1',
      elements: { deprecations: [parameter], now: sunsetAt - 1, guideOf: (e) => `https://docs.example/${e.version}` },
    }) as unknown as Doc;
    assert.match(
      String(query(versionGuide, 'order')!['x-speakeasy-deprecation-message']),
      /Guide: https:\/\/docs\.example\/v1$/,
    );
    const after = build([parameter], sunsetAt);
    assert.equal(query(after, 'order'), undefined);
    assert.ok(query(after, 'sort'));
  });

  it('without a replacement, the description says deprecated and the sunset only', () => {
    const { replacement: _r, ...bare } = field;
    assert.equal(
      build([bare]).components.schemas.Item!.properties.nickname!.description,
      'What friends call it. Deprecated. Sunset: 2027-09-01T00:00:00.000Z.',
    );
  });

  it('no element of this version means the very same document', () => {
    const plain = toOpenApiDocument({ version: bundle.get('v1')!, title: 't', basePath: '/api/v1' });
    assert.deepEqual(build([]), plain);
    assert.deepEqual(
      build([
        { ...field, version: 'v2' },
        { ...parameter, version: 'v2' },
      ]),
      plain,
    );
    // Elements naming what the version lacks change nothing either.
    assert.deepEqual(
      build([
        { ...field, schema: 'Nope' },
        { ...parameter, path: '/nope' },
      ]),
      plain,
    );
  });
});
