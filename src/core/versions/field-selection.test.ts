import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isVersionaryError } from '../errors/index.ts';
import { defineVersions } from './define-versions.ts';
import { createFieldSelector } from './field-selection.ts';
import { fieldAdded } from './instructions.ts';
import { ref } from './schema-walk.ts';
import { defineVersionChange } from './version-change.ts';
import type { HeadDefinition, OperationSpec } from './types.ts';

const head: HeadDefinition = {
  schemas: {
    User: {
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' }, friend: ref('User') },
    },
    UserList: {
      type: 'object',
      properties: {
        data: { type: 'array', items: ref('User') },
        meta: { type: 'object', properties: { id: { type: 'string' } } },
      },
    },
  },
  operations: [
    {
      id: 'list',
      method: 'GET',
      path: '/users',
      summary: 's',
      partial: 'User',
      responses: { 200: { description: 'ok', schema: 'UserList' } },
    },
    {
      id: 'get',
      method: 'GET',
      path: '/users/{id}',
      summary: 's',
      partial: 'User',
      responses: { 200: { description: 'ok', schema: 'User' } },
    },
    { id: 'del', method: 'DELETE', path: '/users/{id}', summary: 's', responses: { 204: { description: 'gone' } } },
  ],
};
const bundle = defineVersions({
  head,
  versions: [
    { name: 'v1' },
    {
      name: 'v2',
      changes: [defineVersionChange({ description: 'email', instructions: [fieldAdded('User', 'email')] })],
    },
  ],
});
const op = (id: string) => bundle.latest.operations.find((o) => o.id === id) as OperationSpec;
const unknownField = (error: unknown) => isVersionaryError(error) && error.code === 'UNKNOWN_FIELD';

describe('field selection', () => {
  const v2 = createFieldSelector(bundle.latest);
  const v1 = createFieldSelector(bundle.versions[0]!);

  it('returns no projection without a fields parameter', () => {
    assert.equal(v2(op('get'), undefined), undefined);
  });

  it('projects a single object, in the order of the schema-independent request', () => {
    assert.deepEqual(v2(op('get'), 'name,id')!.project({ id: 1, name: 'a', email: 'e' }), { name: 'a', id: 1 });
  });

  it('projects each list item and nested objects of the same schema, leaving meta alone', () => {
    const body = {
      data: [{ id: 1, name: 'a', friend: { id: 2, name: 'b', email: 'x' } }, { id: 3 }],
      meta: { id: 'cursor' },
    };
    assert.deepEqual(v2(op('list'), 'id,friend')!.project(body), {
      data: [{ id: 1, friend: { id: 2 } }, { id: 3 }],
      meta: { id: 'cursor' },
    });
  });

  it('trims spaces around names', () => {
    assert.deepEqual(v2(op('get'), ' id , name ')!.project({ id: 1, name: 'a', email: 'e' }), { id: 1, name: 'a' });
  });

  it('refuses names the version lacks, listing each', () => {
    assert.throws(
      () => v1(op('get'), 'id,email'),
      (e) =>
        unknownField(e) && (e as { errors: unknown[] }).errors.length === 1 && /"email"/.test((e as Error).message),
    );
    assert.throws(
      () => v2(op('get'), 'id,a,b'),
      (e) => unknownField(e) && (e as { errors: unknown[] }).errors.length === 2,
    );
    for (const fields of ['', ',', 'id,', '__proto__', 'constructor', 'toString', 'data'])
      assert.throws(() => v2(op('get'), fields), unknownField, fields);
  });

  it('refuses fields on an operation without a partial schema', () => {
    assert.throws(() => v2(op('del'), 'id'), unknownField);
  });

  it('does not copy inherited properties', () => {
    const body = Object.create({ name: 'inherited' }) as Record<string, unknown>;
    body.id = 1;
    assert.deepEqual(v2(op('get'), 'id,name')!.project(body), { id: 1 });
  });

  it('names a kept member the schema requires that a projected object lacks, and only such a member', () => {
    const strict = defineVersions({
      head: {
        ...head,
        schemas: { ...head.schemas, User: { ...head.schemas.User!, required: ['id', 'name'] } },
      },
      versions: [{ name: 'v1' }],
    });
    const select = createFieldSelector(strict.latest);
    const list = strict.latest.operations.find((o) => o.id === 'list')!;
    const body = {
      data: [
        { id: 1, name: 'a' },
        { id: 2, name: undefined, email: 'e' },
      ],
      meta: {},
    };
    assert.deepEqual(select(list, 'id,name')!.projectChecked(body), {
      body: { data: [{ id: 1, name: 'a' }, { id: 2 }], meta: {} },
      missing: 'name',
    });
    assert.equal(select(list, 'id,email')!.projectChecked(body).missing, undefined, 'email is not required');
    assert.equal(select(list, 'id,name')!.projectChecked({ data: [{ id: 1, name: 'a' }] }).missing, undefined);
  });

  it('caches projections per selection', () => {
    assert.equal(v2(op('get'), 'id'), v2(op('get'), 'id'));
    assert.notEqual(v2(op('get'), 'id'), v2(op('list'), 'id'));
  });
});
