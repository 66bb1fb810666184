// One small case per rule not already covered by a focused test, so every registered rule id is
// shown to fire with its registry level.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import { object, openapi, requestDoc, responseDoc } from '../../../test/support/openapi-builder.ts';
import { compatRules, type RuleId } from './rules.ts';

const str = { type: 'string' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const schemas = { A: object({ a: str }), B: object({ b: { type: 'integer' } }), C: object({ c: { type: 'boolean' } }) };
const field = (schema: Record<string, unknown>) => object({ f: schema });

const schemaCases: [RuleId, 'request' | 'response', unknown, unknown][] = [
  ['request-property-deprecated', 'request', field(str), field({ ...str, deprecated: true })],
  ['response-property-deprecated', 'response', field(str), field({ ...str, deprecated: true })],
  ['request-format-changed', 'request', field({ ...str, format: 'uuid' }), field({ ...str, format: 'email' })],
  ['request-format-added', 'request', field(str), field({ ...str, format: 'uuid' })],
  ['response-format-added', 'response', field(str), field({ ...str, format: 'uuid' })],
  ['response-format-removed', 'response', field({ ...str, format: 'uuid' }), field(str)],
  ['request-enum-removed', 'request', field({ ...str, enum: ['a'] }), field(str)],
  ['response-became-enum', 'response', field(str), field({ ...str, enum: ['a'] })],
  ['response-enum-removed', 'response', field({ ...str, enum: ['a'] }), field(str)],
  ['response-became-not-nullable', 'response', field({ ...str, nullable: true }), field(str)],
  ['response-constraint-changed', 'response', field({ ...str, pattern: '^a' }), field({ ...str, pattern: '^b' })],
  [
    'response-additional-properties-restricted',
    'response',
    { ...field(str) },
    { ...field(str), additionalProperties: false },
  ],
  [
    'response-additional-properties-allowed',
    'response',
    { ...field(str), additionalProperties: false },
    { ...field(str), additionalProperties: true },
  ],
  ['response-variant-removed', 'response', { oneOf: [ref('A'), ref('B')] }, { oneOf: [ref('A')] }],
  ['request-all-of-added', 'request', { allOf: [ref('A'), ref('B')] }, { allOf: [ref('A'), ref('B'), ref('C')] }],
  ['request-all-of-removed', 'request', { allOf: [ref('A'), ref('B'), ref('C')] }, { allOf: [ref('A'), ref('B')] }],
  ['response-all-of-added', 'response', { allOf: [ref('A'), ref('B')] }, { allOf: [ref('A'), ref('B'), ref('C')] }],
  [
    'request-discriminator-changed',
    'request',
    { oneOf: [ref('A'), ref('B')], discriminator: { propertyName: 'kind' } },
    { oneOf: [ref('A'), ref('B')], discriminator: { propertyName: 'type' } },
  ],
];

describe('every rule fires with its registry level', () => {
  for (const [id, direction, before, after] of schemaCases) {
    it(id, () => {
      const build = direction === 'request' ? requestDoc : responseDoc;
      const found = diffOpenApi({ base: build(before, schemas), revision: build(after, schemas) }).changes.find(
        (c) => c.id === id,
      );
      assert.ok(found, `${id} not reported`);
      assert.equal(found.level, compatRules[id].level);
      assert.equal(found.direction, direction);
    });
  }
  it('request-parameter-deprecated', () => {
    const doc = (deprecated: boolean) =>
      openapi({
        '/api/v1/users': {
          get: {
            parameters: [{ name: 'q', in: 'query', deprecated, schema: str }],
            responses: { '200': { description: 'ok' } },
          },
        },
      });
    assert.deepEqual(
      diffOpenApi({ base: doc(false), revision: doc(true) }).changes.map((c) => c.id),
      ['request-parameter-deprecated'],
    );
  });
  it('response-deprecation-header-removed: Deprecation and Sunset always, Link and Warning once the operation is no longer deprecated', () => {
    const doc = (deprecated: boolean, names: string[]) =>
      openapi({
        '/api/v1/users': {
          get: {
            deprecated,
            responses: {
              '200': { description: 'ok', headers: Object.fromEntries(names.map((n) => [n, { schema: str }])) },
            },
          },
        },
      });
    const all = ['Deprecation', 'Sunset', 'Link', 'Warning'];
    const reactivated = diffOpenApi({ base: doc(true, all), revision: doc(false, []) }).changes.filter(
      (c) => c.id !== 'endpoint-reactivated',
    );
    // One rule on one operation is one line, naming every header.
    assert.deepEqual(
      reactivated.map((c) => [c.id, c.level, c.oldValue, c.message]),
      [
        [
          'response-deprecation-header-removed',
          'compatible',
          all,
          'The 200 response no longer has the Deprecation, Sunset, Link, Warning headers: the operation is no longer deprecated.',
        ],
      ],
    );
    const stillDeprecated = diffOpenApi({ base: doc(true, all), revision: doc(true, []) }).changes.map((c) => [
      c.id,
      c.oldValue,
    ]);
    assert.deepEqual(stillDeprecated, [
      ['response-deprecation-header-removed', ['Deprecation', 'Sunset']],
      ['response-header-removed', ['Link', 'Warning']],
    ]);
  });
  it('response-media-type-added and response-header-became-required', () => {
    const doc = (extra: Record<string, unknown>, required: boolean) =>
      openapi({
        '/api/v1/users': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                headers: { ETag: { required, schema: str } },
                content: { 'application/json': { schema: str }, ...extra },
              },
            },
          },
        },
      });
    const ids = diffOpenApi({ base: doc({}, false), revision: doc({ 'text/csv': { schema: str } }, true) }).changes.map(
      (c) => c.id,
    );
    assert.deepEqual(ids.sort(), ['response-header-became-required', 'response-media-type-added']);
  });
});
