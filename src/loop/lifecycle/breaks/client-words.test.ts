import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffOpenApi } from '../../../core/compat/index.ts';
import { toOpenApiDocument } from '../../../core/versions/index.ts';
import { createApiBundle } from '../../../reference/api/index.ts';
import { toClientWords } from './client-words.ts';

const change = (over: Record<string, unknown>) => ({
  id: 'x',
  level: 'breaking' as const,
  location: { pointer: '/components/schemas/User' },
  message: '',
  ...over,
});

test("the service's own v1 → v2 breaking changes read as plain words, without schema names or backticks", () => {
  const bundle = createApiBundle();
  const doc = (name: string) => toOpenApiDocument({ version: bundle.get(name)!, title: 'API', basePath: '/api' });
  const breaking = diffOpenApi({ base: doc('v1'), revision: doc('v2'), clock: { now: () => 0 } }).changes.filter(
    (c) => c.level === 'breaking',
  );
  const words = breaking.map((c) => toClientWords(c, 'v2'));
  assert.deepEqual(words, [
    'The response body was a list (JSON array); in v2 it is an object.',
    'The response body was a list (JSON array); in v2 it is an object.',
  ]);
});

test('each common breaking rule has a sentence; the rest lose their markup', () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [
      {
        id: 'response-property-removed',
        direction: 'response',
        oldValue: 'email',
        location: { pointer: '/components/schemas/User' },
      },
      'The response no longer has the field "email".',
    ],
    [
      {
        id: 'response-property-removed',
        direction: 'response',
        oldValue: 'email',
        location: { pointer: '/components/schemas/UserList/properties/data/items/properties/email' },
      },
      'The response no longer has the field "data[].email".',
    ],
    [
      // A deprecated field removed before its x-sunset reads as any removal to its clients.
      {
        id: 'response-property-removed-before-sunset',
        direction: 'response',
        oldValue: 'email',
        location: { pointer: '/components/schemas/User' },
      },
      'The response no longer has the field "email".',
    ],
    [
      { id: 'request-parameter-removed-before-sunset', direction: 'request', oldValue: 'sort' },
      'The parameter "sort" is no longer accepted.',
    ],
    [
      {
        id: 'request-property-added-required',
        direction: 'request',
        newValue: 'name',
        location: { pointer: '/components/schemas/UserInput/properties/name' },
      },
      'Requests must now include the field "name".',
    ],
    [
      {
        id: 'response-type-changed',
        direction: 'response',
        oldValue: 'integer',
        newValue: ['string', 'null'],
        location: { pointer: '/components/schemas/User/properties/id/type' },
      },
      'The response field "id" was a whole number; in v2 it is text (a string) or null.',
    ],
    [
      {
        id: 'request-enum-value-removed',
        direction: 'request',
        oldValue: 'pending',
        location: { pointer: '/components/schemas/UserInput/properties/status/enum' },
      },
      'The request field "status" no longer accepts the value "pending".',
    ],
    [
      { id: 'endpoint-removed', location: { pointer: '/paths/~1api~1users/get', method: 'GET', path: '/api/users' } },
      'This endpoint no longer exists in v2.',
    ],
    [
      {
        id: 'response-max-length-decreased',
        direction: 'response',
        message: 'Response value `User.name`: maxLength decreased from 100 to 50.',
        location: { pointer: '/components/schemas/User/properties/name/maxLength' },
      },
      'The response field "name": maxLength decreased from 100 to 50.',
    ],
    [
      {
        id: 'request-parameter-style-changed',
        direction: 'request',
        message: 'The query parameter `ids` is serialised differently (form to spaceDelimited).',
        location: { pointer: '/paths/~1api~1users/get/parameters/0' },
      },
      'The query parameter "ids" is serialised differently (form to spaceDelimited).',
    ],
  ];
  for (const [over, expected] of cases) {
    const words = toClientWords(change(over), 'v2');
    assert.equal(words, expected);
    assert.doesNotMatch(words, /[`*_<>]|UserList|UserInput/);
  }
});
