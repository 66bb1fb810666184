import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { missingAtPointer } from './schema-pointer.ts';
import { ref } from './schema-walk.ts';
import type { SchemaMap } from './types.ts';

const schemas: SchemaMap = {
  UserList: {
    type: 'object',
    properties: { data: { type: 'array', items: ref('User') }, meta: { anyOf: [ref('Meta'), { type: 'null' }] } },
  },
  User: { allOf: [ref('Named'), { properties: { email: { type: 'string' } } }] },
  Named: { type: 'object', properties: { name: { type: 'string' } } },
  Meta: { type: 'object', properties: { next: { type: 'string' } }, patternProperties: { '^x-': {} } },
  Free: { type: 'object', properties: { extra: {} } },
};

describe('missingAtPointer', () => {
  it('finds members through references, arrays, allOf, anyOf and patternProperties', () => {
    for (const pointer of ['', '/data', '/data/0', '/data/0/name', '/data/3/email', '/meta/next', '/meta/x-a'])
      assert.equal(missingAtPointer(schemas.UserList!, pointer, schemas), undefined, pointer);
  });

  it('names the first part of the pointer the schema does not have', () => {
    assert.equal(missingAtPointer(schemas.UserList!, '/itemz', schemas), '/itemz');
    assert.equal(missingAtPointer(schemas.UserList!, '/items', schemas), '/items');
    assert.equal(missingAtPointer(schemas.UserList!, '/data/x', schemas), '/data/x');
    assert.equal(missingAtPointer(schemas.UserList!, '/data/0/nick/a', schemas), '/data/0/nick');
  });

  it('lets a member of a schema that says nothing of its members be anything', () => {
    assert.equal(missingAtPointer(schemas.Free!, '/extra/any/depth', schemas), undefined);
  });
});
