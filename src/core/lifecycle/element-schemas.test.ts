import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FieldElement } from './element-deprecation.ts';
import { checkElementDeprecations, parseElementDeprecations } from './element-config.ts';
import { fieldSchemas, ofResource, servedSchemas, successSchemas } from './element-schemas.ts';
import { lifecycleShapeErrors } from './lifecycle-schema.ts';

const member = { type: 'string' };
const v2 = {
  name: 'v2',
  schemas: {
    User: { type: 'object', properties: { id: member, nickname: member } },
    UserDetail: { type: 'object', properties: { id: member, nickname: member, _version: member } },
    UserInput: { type: 'object', properties: { nickname: member } },
    UserList: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/User' } } } },
    Username: { type: 'object', properties: { nickname: member } },
    Post: { type: 'object', properties: { id: member } },
  },
  operations: [
    { method: 'GET', path: '/users', partial: 'User', responses: { 200: { schema: 'UserList' } } },
    { method: 'GET', path: '/users/{id}', partial: 'UserDetail', responses: { 200: { schema: 'UserDetail' } } },
    { method: 'POST', path: '/users', responses: { 201: { schema: 'UserDetail' } } },
  ],
};
const dates = { deprecatedAt: 0, sunsetAt: 400 * 86_400_000 };
const once: FieldElement = {
  kind: 'field',
  version: 'v2',
  element: 'User.nickname',
  schema: 'User',
  resource: 'User',
  field: 'nickname',
  ...dates,
};

test('the served schemas are the version’s and the fields twins the document generates', () => {
  assert.deepEqual(Object.keys(servedSchemas(v2)).slice(6), ['UserPartial', 'UserListPartial', 'UserDetailPartial']);
});

test('a resource owns its name and its name followed by a capitalised word', () => {
  assert.ok(ofResource('User', 'User') && ofResource('UserInput', 'User') && ofResource('UserDetailPartial', 'User'));
  assert.ok(!ofResource('Username', 'User') && !ofResource('Post', 'User'));
});

test('named once, a field reaches every schema of the resource that carries it', () => {
  assert.deepEqual(fieldSchemas(once, servedSchemas(v2)), [
    'User',
    'UserDetail',
    'UserInput',
    'UserPartial',
    'UserDetailPartial',
  ]);
});

test('named by schemas, a field reaches those and their twins', () => {
  const { resource: _resource, ...named } = once;
  const e: FieldElement = { ...named, schemas: ['User', 'UserInput'] };
  assert.deepEqual(fieldSchemas(e, servedSchemas(v2)), ['User', 'UserInput', 'UserPartial']);
});

test('a success body holds the schemas it reaches through $ref', () => {
  assert.deepEqual(successSchemas(v2.schemas, v2.operations[0]!), ['UserList', 'User']);
});

test('the config takes resource or schema, and a twin the document shows', () => {
  const entry = { version: 'v2', field: 'nickname', deprecatedAt: 0, sunsetAt: 1 };
  assert.match(
    lifecycleShapeErrors({ fieldDeprecations: [entry] }, '')[0]!,
    /^fieldDeprecations\[0\] needs one of "resource"/,
  );
  assert.match(
    lifecycleShapeErrors({ fieldDeprecations: [{ ...entry, resource: 'User', schema: 'User' }] }, 'lifecycle')[0]!,
    /^lifecycle\.fieldDeprecations\[0\] names both "resource"/,
  );
  const elements = parseElementDeprecations({
    fieldDeprecations: [
      { ...entry, ...dates, schema: ['UserPartial', 'UserDetailPartial'] },
      { ...entry, ...dates, resource: 'Usr' },
    ],
  });
  assert.deepEqual(checkElementDeprecations({ elements, versions: [v2] }), [
    'field deprecation Usr.nickname in v2 reaches no schema: no schema of v2 named Usr or Usr<Suffix> has a field "nickname" (schemas: User, UserDetail, UserInput, UserList, Username, Post, UserPartial, UserListPartial, UserDetailPartial)',
  ]);
});
