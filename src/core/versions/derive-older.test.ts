import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deriveOlder } from './derive-older.ts';
import {
  endpointAdded,
  enumValuesAdded,
  enumValuesRemoved,
  fieldAdded,
  fieldRemoved,
  fieldRetyped,
  schemaReplaced,
} from './instructions.ts';
import { ref } from './schema-walk.ts';
import type { OperationSpec, SchemaMap } from './types.ts';

const schemas = (): SchemaMap => ({
  User: {
    type: 'object',
    required: ['id', 'email'],
    properties: {
      id: { type: 'integer' },
      email: { type: 'string' },
      status: { type: 'string', enum: ['a', 'b', 'c'] },
    },
  },
  Other: { type: 'object', properties: { id: { type: 'integer' } } },
  List: { type: 'object', properties: { data: { type: 'array', items: ref('User') } } },
});
const operations: OperationSpec[] = [
  {
    id: 'u.get',
    method: 'GET',
    path: '/users/{id}',
    summary: 's',
    responses: { 200: { description: 'ok', schema: 'User' } },
  },
  {
    id: 'u.search',
    method: 'GET',
    path: '/users/search',
    summary: 's',
    responses: { 200: { description: 'ok', schema: 'List' } },
  },
];

describe('deriveOlder', () => {
  it('removes an added field and its required entry, without touching the newer schemas', () => {
    const newer = schemas();
    const snapshot = structuredClone(newer);
    const { schemas: older, problems } = deriveOlder({
      version: 'v2',
      schemas: newer,
      operations,
      instructions: [fieldAdded('User', 'email')],
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(Object.keys(older.User!.properties as object), ['id', 'status']);
    assert.deepEqual(older.User!.required, ['id']);
    assert.deepEqual(newer, snapshot);
  });

  it('drops required entirely when the last required field goes', () => {
    const s: SchemaMap = { A: { type: 'object', required: ['x'], properties: { x: {} } } };
    const { schemas: older } = deriveOlder({
      version: 'v2',
      schemas: s,
      operations: [],
      instructions: [fieldAdded('A', 'x')],
    });
    assert.equal(Object.hasOwn(older.A!, 'required'), false);
  });

  it('restores a removed field, required when declared so', () => {
    const { schemas: older, problems } = deriveOlder({
      version: 'v2',
      schemas: schemas(),
      operations,
      instructions: [fieldRemoved({ schema: 'User', field: 'login', definition: { type: 'string' }, required: true })],
    });
    assert.deepEqual(problems, []);
    assert.deepEqual((older.User!.properties as Record<string, unknown>).login, { type: 'string' });
    assert.deepEqual(older.User!.required, ['id', 'email', 'login']);
  });

  it('restores a retyped field and a replaced schema', () => {
    const { schemas: older } = deriveOlder({
      version: 'v2',
      schemas: schemas(),
      operations,
      instructions: [
        fieldRetyped({ schema: 'User', field: 'id', previous: { type: 'string' } }),
        schemaReplaced({ schema: 'List', previous: { type: 'array', items: ref('User') } }),
      ],
    });
    assert.deepEqual((older.User!.properties as Record<string, unknown>).id, { type: 'string' });
    assert.deepEqual(older.List, { type: 'array', items: ref('User') });
  });

  it('removes added enum values', () => {
    const { schemas: older, problems } = deriveOlder({
      version: 'v2',
      schemas: schemas(),
      operations,
      instructions: [enumValuesAdded({ schema: 'User', field: 'status', values: ['c'], mapDownTo: { c: 'b' } })],
    });
    assert.deepEqual(problems, []);
    assert.deepEqual((older.User!.properties as Record<string, { enum: string[] }>).status!.enum, ['a', 'b']);
  });

  it('restores removed enum values, and reports values the newer enum still has or mappings to values it lacks', () => {
    const { schemas: older, problems } = deriveOlder({
      version: 'v2',
      schemas: schemas(),
      operations,
      instructions: [enumValuesRemoved({ schema: 'User', field: 'status', values: ['d'], mapUpTo: { d: 'c' } })],
    });
    assert.deepEqual(problems, []);
    assert.deepEqual((older.User!.properties as Record<string, { enum: string[] }>).status!.enum, ['a', 'b', 'c', 'd']);
    const bad = deriveOlder({
      version: 'v2',
      schemas: schemas(),
      operations,
      instructions: [
        enumValuesRemoved({ schema: 'User', field: 'status', values: ['a', 'd'], mapUpTo: { x: 'a', d: 'z' } }),
        enumValuesRemoved({ schema: 'User', field: 'id', values: ['q'] }),
      ],
    });
    assert.deepEqual(bad.problems, [
      'v2: enum-values-removed names User.status value "a", which the enum still has',
      'v2: enum-values-removed maps "x" at User.status, which is not one of the removed values',
      'v2: enum-values-removed maps "d" to "z" at User.status, which the newer enum lacks',
      'v2: enum-values-removed names User.id, which is not an enum',
    ]);
  });

  it('unroutes an added endpoint', () => {
    const { operations: older, problems } = deriveOlder({
      version: 'v2',
      schemas: schemas(),
      operations,
      instructions: [endpointAdded('GET', '/users/search')],
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(
      older.map((o) => o.id),
      ['u.get'],
    );
  });

  it('applies several instructions in order to one schema', () => {
    const { schemas: older } = deriveOlder({
      version: 'v2',
      schemas: schemas(),
      operations,
      instructions: [fieldAdded('User', 'email'), fieldAdded('User', 'status')],
    });
    assert.deepEqual(Object.keys(older.User!.properties as object), ['id']);
  });

  it('reports every instruction that names something missing, prefixed with the version', () => {
    const { problems } = deriveOlder({
      version: 'v2',
      schemas: schemas(),
      operations,
      instructions: [
        fieldAdded('Nope', 'x'),
        fieldAdded('User', 'phone'),
        fieldRemoved({ schema: 'User', field: 'email', definition: {} }),
        fieldRetyped({ schema: 'User', field: 'ghost', previous: {} }),
        enumValuesAdded({ schema: 'User', field: 'id', values: ['x'] }),
        enumValuesAdded({ schema: 'User', field: 'status', values: ['z'], mapDownTo: { y: 'a', z: 'q' } }),
        endpointAdded('DELETE', '/users/{id}'),
        schemaReplaced({ schema: 'Missing', previous: {} }),
      ],
    });
    const expected = [
      /schema "Nope"/,
      /User\.phone, which the version does not have/,
      /field-removed names User\.email, which the version still has/,
      /User\.ghost/,
      /User\.id, which is not an enum/,
      /value "z", which the enum lacks/,
      /maps "y" .* not one of the added values/,
      /maps "z" to "q"/,
      /DELETE \/users\/\{id\}/,
      /schema "Missing"/,
    ];
    assert.equal(problems.length, expected.length, problems.join('\n'));
    for (const pattern of expected)
      assert.ok(
        problems.some((p) => pattern.test(p)),
        `${pattern} in ${problems.join('\n')}`,
      );
    assert.ok(problems.every((p) => p.startsWith('v2: ')));
  });

  it('checks a previousFrom pointer against the newer schema', () => {
    const derive = (previousFrom: string) =>
      deriveOlder({
        version: 'v2',
        schemas: schemas(),
        operations,
        instructions: [
          schemaReplaced({ schema: 'List', previous: { type: 'array', items: ref('User') }, previousFrom }),
        ],
      }).problems;
    assert.deepEqual(derive('/data'), []);
    assert.deepEqual(derive('/itemz'), [
      'v2: schema-replaced previousFrom /itemz names /itemz, which List does not have',
    ]);
    assert.deepEqual(derive('/data/0/nick'), [
      'v2: schema-replaced previousFrom /data/0/nick names /data/0/nick, which List does not have',
    ]);
  });
});
