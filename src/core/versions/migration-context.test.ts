import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineVersions } from './define-versions.ts';
import { fieldAdded } from './instructions.ts';
import type { MigrationContext } from './types.ts';
import { defineVersionChange } from './version-change.ts';

describe('migrations told the call (ctx)', () => {
  it('gives request and response migrations, at every step of a chain, the call’s context', () => {
    const seen: Array<[string, MigrationContext & { operationId?: string }]> = [];
    const change = (version: string, field: string) =>
      defineVersionChange({
        description: `${version} adds ${field}.`,
        instructions: [fieldAdded('User', field)],
        requests: { User: (body, ctx) => (seen.push([`up ${version}`, ctx]), body) },
        responses: { User: (body, ctx) => (seen.push([`down ${version}`, ctx]), body) },
      });
    const bundle = defineVersions({
      head: {
        schemas: { User: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } } },
        operations: [{ id: 'users.put', method: 'PUT', path: '/users/{id}', summary: '', body: 'User', responses: {} }],
      },
      versions: [
        { name: 'v1' },
        { name: 'v2', changes: [change('v2', 'a')] },
        { name: 'v3', changes: [change('v3', 'b')] },
      ],
    });
    const [v1, , v3] = bundle.versions as [never, never, never];
    const context: MigrationContext = {
      operation: { id: 'users.put', method: 'PUT', path: '/users/{id}' },
      params: { id: '7' },
      query: { dry: 'yes' },
      headers: { 'x-tag': 't' },
    };
    bundle.migrations.requestUp({ schema: 'User', body: {}, from: v1, to: v3, context });
    bundle.migrations.responseDown({
      schema: 'User',
      body: {},
      from: v3,
      to: v1,
      context: { ...context, status: 200 },
    });
    assert.deepEqual(
      seen.map(([step]) => step),
      ['up v2', 'up v3', 'down v3', 'down v2'],
    );
    assert.deepEqual(seen[0]![1], { ...context, operationId: 'users.put' });
    assert.equal(seen[3]![1].status, 200);
    // Without one, a migration is told the operation alone, by the id it is given.
    seen.length = 0;
    bundle.migrations.requestUp({ schema: 'User', body: {}, from: v1, to: v3, operationId: 'users.put' });
    assert.deepEqual(seen[0]![1].operation, { id: 'users.put', method: 'PUT', path: '/users/{id}' });
  });
});
