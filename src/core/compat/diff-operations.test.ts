import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import { openapi } from '../../../test/support/openapi-builder.ts';
import type { Change } from './types.ts';

const ok = { description: 'ok' };

function op(operation: Record<string, unknown>, path = '/api/v1/users/{id}', method = 'get') {
  return openapi({ [path]: { [method]: { responses: { '200': ok }, ...operation } } });
}
function ids(changes: Change[]): string[] {
  return changes.map((c) => `${c.id}:${c.level}`);
}
function diff(base: unknown, revision: unknown): Change[] {
  return diffOpenApi({ base, revision }).changes;
}

describe('parameters (always request direction)', () => {
  const q = (extra: Record<string, unknown> = {}) => ({
    name: 'limit',
    in: 'query',
    schema: { type: 'integer' },
    ...extra,
  });
  it('a new required query parameter breaks; a new optional one is compatible', () => {
    assert.deepEqual(ids(diff(op({}), op({ parameters: [q({ required: true })] }))), [
      'request-parameter-added-required:breaking',
    ]);
    assert.deepEqual(ids(diff(op({}), op({ parameters: [q()] }))), ['request-parameter-added-optional:compatible']);
  });
  it('removing a parameter breaks; required flips are classified', () => {
    assert.deepEqual(ids(diff(op({ parameters: [q()] }), op({}))), ['request-parameter-removed:breaking']);
    assert.deepEqual(ids(diff(op({ parameters: [q()] }), op({ parameters: [q({ required: true })] }))), [
      'request-parameter-became-required:breaking',
    ]);
    assert.deepEqual(ids(diff(op({ parameters: [q({ required: true })] }), op({ parameters: [q()] }))), [
      'request-parameter-became-optional:compatible',
    ]);
  });
  it('header parameters match case-insensitively; their schemas are compared as requests', () => {
    const h = (name: string, values: string[]) => ({ name, in: 'header', schema: { type: 'string', enum: values } });
    assert.deepEqual(
      ids(diff(op({ parameters: [h('X-Mode', ['a', 'b'])] }), op({ parameters: [h('x-mode', ['a'])] }))),
      ['request-enum-value-removed:breaking'],
    );
  });
  it('a renamed path parameter is no change; a changed path parameter type breaks', () => {
    const p = (name: string, type: string) => ({
      parameters: [{ name, in: 'path', required: true, schema: { type } }],
    });
    assert.deepEqual(
      diff(op(p('id', 'integer'), '/api/v1/users/{id}'), op(p('userId', 'integer'), '/api/v1/users/{userId}')),
      [],
    );
    assert.deepEqual(ids(diff(op(p('id', 'integer')), op(p('id', 'string')))), ['request-type-changed:breaking']);
  });
  it('path-level parameters count, and $ref parameters resolve', () => {
    const base = openapi({
      '/api/v1/users': { parameters: [{ $ref: '#/components/parameters/Limit' }], get: { responses: { '200': ok } } },
    });
    (base.components as Record<string, unknown>).parameters = {
      Limit: { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } },
    };
    const revision = structuredClone(base);
    (
      revision.components as Record<string, Record<string, Record<string, Record<string, unknown>>>>
    ).parameters!.Limit!.schema!.maximum = 50;
    assert.deepEqual(ids(diff(base, revision)), ['request-constraint-tightened:breaking']);
  });
  it('a changed serialisation style is a risk', () => {
    assert.deepEqual(ids(diff(op({ parameters: [q()] }), op({ parameters: [q({ explode: false })] }))), [
      'request-parameter-style-changed:risk',
    ]);
  });
});

describe('request bodies', () => {
  const body = (required: boolean, media = 'application/json') => ({
    requestBody: { required, content: { [media]: { schema: { type: 'object' } } } },
  });
  it('adding a required body breaks, an optional one does not', () => {
    assert.deepEqual(ids(diff(op({}, '/api/v1/users', 'post'), op(body(true), '/api/v1/users', 'post'))), [
      'request-body-added-required:breaking',
    ]);
    assert.deepEqual(ids(diff(op({}, '/api/v1/users', 'post'), op(body(false), '/api/v1/users', 'post'))), [
      'request-body-added-optional:compatible',
    ]);
  });
  it('required flips and removal are classified', () => {
    assert.deepEqual(ids(diff(op(body(false)), op(body(true)))), ['request-body-became-required:breaking']);
    assert.deepEqual(ids(diff(op(body(true)), op(body(false)))), ['request-body-became-optional:compatible']);
    assert.deepEqual(ids(diff(op(body(true)), op({}))), ['request-body-removed:breaking']);
  });
  it('media types: removal breaks, addition is compatible, parameters are ignored', () => {
    assert.deepEqual(ids(diff(op(body(true)), op(body(true, 'application/xml')))), [
      'request-media-type-removed:breaking',
      'request-media-type-added:compatible',
    ]);
    assert.deepEqual(diff(op(body(true)), op(body(true, 'application/json; charset=utf-8'))), []);
  });
});

describe('responses', () => {
  const responses = (map: Record<string, unknown>) => ({ responses: map });
  it('a removed success status breaks; a removed error status is a risk', () => {
    assert.deepEqual(ids(diff(op(responses({ '200': ok, '404': ok })), op(responses({ '404': ok })))), [
      'response-success-status-removed:breaking',
    ]);
    assert.deepEqual(ids(diff(op(responses({ '200': ok, '404': ok })), op(responses({ '200': ok })))), [
      'response-error-status-removed:risk',
    ]);
  });
  it('a new success status is a risk; a new error status is compatible', () => {
    assert.deepEqual(ids(diff(op(responses({ '200': ok })), op(responses({ '200': ok, '202': ok })))), [
      'response-success-status-added:risk',
    ]);
    assert.deepEqual(ids(diff(op(responses({ '200': ok })), op(responses({ '200': ok, '429': ok })))), [
      'response-error-status-added:compatible',
    ]);
  });
  it('headers: removal and becoming optional break; additions are compatible', () => {
    const withHeader = (required?: boolean) =>
      op(responses({ '200': { description: 'ok', headers: { Location: { required, schema: { type: 'string' } } } } }));
    assert.deepEqual(ids(diff(withHeader(true), op({}))), ['response-header-removed:breaking']);
    assert.deepEqual(ids(diff(withHeader(true), withHeader(false))), ['response-header-became-optional:breaking']);
    assert.deepEqual(ids(diff(op({}), withHeader(false))), ['response-header-added:compatible']);
  });
  it('response header schemas are compared as responses', () => {
    const h = (type: string) =>
      op(responses({ '200': { description: 'ok', headers: { 'X-Rate': { schema: { type } } } } }));
    assert.deepEqual(ids(diff(h('integer'), h('string'))), ['response-type-changed:breaking']);
  });
  it('a removed response content type breaks', () => {
    const json = op(
      responses({ '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } }),
    );
    assert.deepEqual(ids(diff(json, op(responses({ '200': ok })))), ['response-media-type-removed:breaking']);
  });
});

describe('operations', () => {
  it('deprecation, reactivation and operationId changes', () => {
    assert.deepEqual(ids(diff(op({}), op({ deprecated: true }))), ['endpoint-deprecated:compatible']);
    assert.deepEqual(ids(diff(op({ deprecated: true }), op({}))), ['endpoint-reactivated:compatible']);
    assert.deepEqual(ids(diff(op({ operationId: 'getUser' }), op({ operationId: 'readUser' }))), [
      'operation-id-changed:risk',
    ]);
  });
  it('removing a deprecated endpoint is a risk rather than a surprise', () => {
    assert.deepEqual(ids(diff(op({ deprecated: true }), openapi({}))), ['endpoint-removed-after-deprecation:risk']);
  });
  it('each change carries a location with method, path and pointer', () => {
    const [c] = diff(
      op({}),
      op({ parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }] }),
    );
    assert.deepEqual(c?.location, {
      method: 'GET',
      path: '/api/v1/users/{id}',
      pointer: '/paths/~1api~1v1~1users~1{id}/get/parameters/0',
    });
    assert.match(c?.message ?? '', /required query parameter `q`/);
  });
});
