import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readVersionChanges } from './change-file.ts';
import { defineVersions } from './define-versions.ts';
import { ref } from './schema-walk.ts';

const head = {
  schemas: {
    User: { type: 'object', properties: { id: { type: 'integer' }, email: { type: 'string' } } },
    UserList: { type: 'object', properties: { data: { type: 'array', items: ref('User') } } },
  },
  operations: [
    {
      id: 'list',
      method: 'GET' as const,
      path: '/users',
      summary: 'List',
      responses: { 200: { description: 'ok', schema: 'UserList' } },
    },
  ],
};

describe('readVersionChanges', () => {
  it("reads the library's instructions as data, previousFrom serving as the response migration", () => {
    const { changes, problems } = readVersionChanges([
      {
        version: 'v2',
        description: 'Emails; lists as objects.',
        instructions: [
          { op: 'field-added', schema: 'User', field: 'email' },
          {
            op: 'schema-replaced',
            schema: 'UserList',
            previous: { type: 'array', items: ref('User') },
            previousFrom: '/data',
          },
        ],
      },
    ]);
    assert.deepEqual(problems, []);
    const bundle = defineVersions({
      head,
      versions: [{ name: 'v1' }, { name: 'v2', changes: changes.map((c) => c.change) }],
    });
    const body = { data: [{ id: 1, email: 'a@example.com' }] };
    const v1 = bundle.migrations.responseDown({
      schema: 'UserList',
      body,
      from: bundle.get('v2')!,
      to: bundle.get('v1')!,
    });
    assert.deepEqual(v1, [{ id: 1 }]);
  });

  it('lists every problem with its place', () => {
    const { problems } = readVersionChanges([
      { version: 'two', description: 'x', instructions: [{ op: 'field-added', schema: 'User', field: 'a', extra: 1 }] },
      { version: 'v2', description: 'x', instructions: [] },
    ]);
    assert.deepEqual(problems, [
      '[0].version: must name the version that introduced the change, such as "v2"',
      '[0].instructions[0].extra: is not a member of field-added',
      '[1].instructions: must be a non-empty list',
    ]);
    assert.deepEqual(readVersionChanges({}).problems, ['the file must hold a list of version changes']);
  });
});
