import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiVersion, OperationSpec } from '../../core/versions/index.ts';
import { createOldParameterCheck } from './old-requests.ts';

const version = {
  name: 'v1',
  schemas: { Status: { type: 'string', enum: ['active', 'inactive'] } },
} as unknown as ApiVersion;
const operation = {
  id: 'list_user_posts',
  method: 'GET',
  path: '/users/{user_id}/posts',
  summary: '',
  responses: {},
  params: { type: 'object', properties: { user_id: { type: 'integer', minimum: 1 } }, required: ['user_id'] },
  query: {
    type: 'object',
    properties: {
      limit: { anyOf: [{ type: 'integer', maximum: 50 }, { type: 'null' }] },
      status: { $ref: '#/components/schemas/Status' },
      tag: { type: 'array', items: { type: 'string', maxLength: 3 } },
    },
  },
} as unknown as OperationSpec;

describe('createOldParameterCheck', () => {
  const check = createOldParameterCheck(version);
  const problem = (path: string, query = '') => check(operation, { path, query });

  it('takes parameters that fit, each read as its schema types it', () => {
    assert.equal(problem('/users/7/posts', 'limit=50&status=active&tag=a&tag=b'), undefined);
    assert.equal(problem('/users/7/posts', 'tag=abc'), undefined);
  });

  it('answers a path segment that fits no value as a 404 naming the parameter', () => {
    for (const path of ['/users/x/posts', '/users/0/posts', '/users/07/posts']) {
      const found = problem(path);
      assert.equal(found?.code, 'NOT_FOUND', path);
      assert.equal(found?.errors?.[0]?.pointer, '/path/user_id', path);
    }
  });

  it('answers a query that breaks its schema, or names an undeclared parameter, as a 400 naming it', () => {
    const pointers = (query: string) => problem('/users/7/posts', query)?.errors?.map((e) => e.pointer);
    assert.ok(pointers('limit=51')?.includes('/query/limit'));
    assert.ok(pointers('status=pending')?.includes('/query/status'));
    assert.ok(pointers('tag=toolong')?.includes('/query/tag/0'));
    assert.deepEqual(pointers('email=a'), ['/query/email']);
    assert.equal(problem('/users/7/posts', 'a=%zz')?.code, 'MALFORMED_REQUEST');
  });
});
