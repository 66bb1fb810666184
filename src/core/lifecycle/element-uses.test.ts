import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElementDeprecation } from './element-deprecation.ts';
import { compileElementUses, looseQuery } from './element-uses.ts';

test('looseQuery reads a name in any case, cut at "[", pairs split at "&" and ";", decoded', () => {
  assert.deepEqual(
    { ...looseQuery('/api/v2/users?Fields[]=id,lastName;x=1&%6Frder=a+b&order[0]=c&flag#frag') },
    { fields: ['id,lastName'], x: ['1'], order: ['a b', 'c'], flag: [''] },
  );
  assert.deepEqual({ ...looseQuery('/api/v2/users') }, {});
  assert.deepEqual(looseQuery('/?__proto__=1').__proto__, ['1'], 'a name like any other');
});

test('with loose names, a parameter and a field in fields= count in any spelling', () => {
  const elements: ElementDeprecation[] = [
    {
      kind: 'parameter',
      version: 'v2',
      element: 'GET /users?page',
      method: 'GET',
      path: '/users',
      parameter: 'page',
      deprecatedAt: 0,
      sunsetAt: 1,
    },
    {
      kind: 'field',
      version: 'v2',
      element: 'User.lastName',
      schema: 'User',
      field: 'lastName',
      deprecatedAt: 0,
      sunsetAt: 1,
    },
  ];
  const check = compileElementUses({
    version: 'v2',
    operation: { method: 'GET', path: '/users' },
    elements,
    selects: ['listUsers_200', 'User'],
    looseNames: true,
  })!;
  const used = (target: string) => check({ body: undefined, query: looseQuery(target) }).map((e) => e.element);
  assert.deepEqual(used('/users?PAGE=1&fields[]=id,%20lastName'), ['User.lastName', 'GET /users?page']);
  assert.deepEqual(used('/users?fields=id&fields=lastName'), ['User.lastName'], 'every fields pair');
  assert.deepEqual(used('/users?fields=LastName&pages=1'), [], 'field names are exact, parameter names whole');
});
