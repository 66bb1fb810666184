// Changes in form only must report nothing: refs inlined, renamed or restructured, keys
// reordered, prose edited. And shared schemas must report their changes once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import { toDocumentSet } from './document-set.ts';
import { object, openapi, responseDoc } from '../../../test/support/openapi-builder.ts';

const user = object(
  { id: { type: 'integer' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
  ['id'],
);
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function changes(base: unknown, revision: unknown) {
  return diffOpenApi({ base, revision }).changes;
}

describe('no false positives', () => {
  it('a $ref inlined is no change', () => {
    assert.deepEqual(changes(responseDoc(ref('User'), { User: user }), responseDoc(user)), []);
    assert.deepEqual(changes(responseDoc(user), responseDoc(ref('User'), { User: user })), []);
  });
  it('a component renamed is no change', () => {
    assert.deepEqual(
      changes(responseDoc(ref('User'), { User: user }), responseDoc(ref('Account'), { Account: user })),
      [],
    );
  });
  it('a ref wrapped in allOf to add a description, or split into allOf parts, is no change', () => {
    assert.deepEqual(
      changes(
        responseDoc(ref('User'), { User: user }),
        responseDoc({ allOf: [ref('User')], description: 'The user' }, { User: user }),
      ),
      [],
    );
    const base = object({ id: { type: 'integer' } }, ['id']);
    const rest = object({ name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } });
    assert.deepEqual(
      changes(responseDoc(ref('User'), { User: user }), responseDoc({ allOf: [ref('Base'), rest] }, { Base: base })),
      [],
    );
  });
  it('a ref chain (ref to a ref) is no change', () => {
    assert.deepEqual(
      changes(responseDoc(ref('User'), { User: user }), responseDoc(ref('Alias'), { Alias: ref('User'), User: user })),
      [],
    );
  });
  it('reordered document keys are no change', () => {
    const reordered = {
      required: ['id'],
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        tags: { items: { type: 'string' }, type: 'array' },
      },
      type: 'object',
    };
    assert.deepEqual(changes(responseDoc(user), responseDoc(reordered)), []);
    const doc = responseDoc(user);
    const flipped = { components: doc.components, paths: doc.paths, info: doc.info, openapi: doc.openapi };
    assert.deepEqual(changes(doc, flipped), []);
  });
  it('descriptions, titles, examples and x- extensions are no change', () => {
    const prose = structuredClone(user) as Record<string, Record<string, Record<string, unknown>>>;
    prose.properties!.name!.description = 'Full name';
    prose.properties!.name!.example = 'Ada';
    (prose as Record<string, unknown>).title = 'User';
    (prose as Record<string, unknown>)['x-internal'] = true;
    assert.deepEqual(changes(responseDoc(user), responseDoc(prose)), []);
  });
  it('a path parameter renamed is no change', () => {
    const doc = (name: string) =>
      openapi({
        [`/api/v1/users/{${name}}`]: {
          get: {
            parameters: [{ name, in: 'path', required: true, schema: { type: 'integer' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      });
    assert.deepEqual(changes(doc('id'), doc('userId')), []);
  });
  it('a schema moved to another file is no change', () => {
    const root = responseDoc({ $ref: 'schemas.json#/User' });
    const base = {
      root: 'memory:///api/openapi.json',
      documents: new Map<string, unknown>([
        ['memory:///api/openapi.json', root],
        ['memory:///api/schemas.json', { User: user }],
      ]),
    };
    assert.deepEqual(changes(base, toDocumentSet(responseDoc(ref('User'), { User: user }))), []);
  });
});

describe('shared and circular schemas', () => {
  const node = (extra: Record<string, unknown> = {}) =>
    object({ id: { type: 'integer' }, parent: ref('Node'), children: { type: 'array', items: ref('Node') }, ...extra });
  it('circular refs terminate and a change in a cycle is found', () => {
    const result = diffOpenApi({
      base: responseDoc(ref('Node'), { Node: node() }),
      revision: responseDoc(ref('Node'), { Node: node({ id: { type: 'string' } }) }),
    });
    assert.deepEqual(
      result.changes.map((c) => c.id),
      ['response-type-changed'],
    );
    assert.equal(result.changes[0]?.location.pointer, '/components/schemas/Node/properties/id');
    assert.equal(`${result.changes[0]?.location.method} ${result.changes[0]?.location.path}`, 'GET /api/v1/users/{id}');
  });
  it('a change to a shared schema is reported once, at the schema, naming every operation that reaches it', () => {
    const paths = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `/api/v1/things${i}`,
          {
            get: {
              responses: {
                '200': {
                  description: 'ok',
                  content: { 'application/json': { schema: { type: 'array', items: ref('User') } } },
                },
              },
            },
          },
        ]),
      );
    const before = openapi(paths(20), { User: user });
    const after = openapi(paths(20), { User: object({ id: { type: 'integer' } }, ['id']) });
    const found = diffOpenApi({ base: before, revision: after }).changes;
    assert.deepEqual(
      found.map((c) => c.location.pointer),
      ['/components/schemas/User/properties/name', '/components/schemas/User/properties/tags'],
    );
    assert.equal(found[0]?.location.via, 'GET /api/v1/things0');
    assert.equal(found[0]?.location.operationCount, 20, 'counts every operation that uses the schema');
    assert.deepEqual(
      found[0]?.location.operations,
      Array.from({ length: 20 }, (_, i) => `GET /api/v1/things${i}`).sort(),
      'names every operation, not the first ten',
    );
  });
  it('a schema used in requests and responses is judged in each direction', () => {
    const doc = (schema: Record<string, unknown>) =>
      openapi(
        {
          '/api/v1/users': {
            post: {
              requestBody: { content: { 'application/json': { schema: ref('User') } } },
              responses: { '201': { description: 'ok', content: { 'application/json': { schema: ref('User') } } } },
            },
          },
        },
        { User: schema },
      );
    const found = changes(
      doc(object({ id: { type: 'integer' } })),
      doc(object({ id: { type: 'integer' }, nick: { type: 'string' } }, ['nick'])),
    );
    assert.deepEqual(found.map((c) => `${c.id}:${c.level}`).sort(), [
      'request-property-added-required:breaking',
      'response-property-added:compatible',
    ]);
  });
});
