import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineVersions } from './define-versions.ts';
import { endpointMoved, endpointRemoved, headerRenamed, queryRenamed, statusChanged } from './endpoint-instructions.ts';
import { endpointSource } from './endpoint-routes.ts';
import { endpointAdded } from './instructions.ts';
import type { Instruction } from './instructions.ts';
import type { OperationSpec } from './types.ts';
import { defineVersionChange } from './version-change.ts';

const user = { type: 'object', properties: { id: { type: 'integer' } } };
const operations: OperationSpec[] = [
  {
    id: 'people.get',
    method: 'GET',
    path: '/people/{user_id}',
    summary: 'Read',
    responses: { 200: { description: 'ok', schema: 'User', headers: ['ETag', 'X-Total-Count?'] } },
  },
  {
    id: 'people.archive',
    method: 'POST',
    path: '/people/{user_id}/archive',
    summary: 'Archive',
    responses: { 204: { description: 'done' } },
  },
  {
    id: 'users.create',
    method: 'POST',
    path: '/users',
    summary: 'Create',
    query: { type: 'object', properties: { page_size: { type: 'integer' } }, required: ['page_size'] },
    responses: { 201: { description: 'created', schema: 'User' } },
  },
];
const define = (...instructions: Instruction[]) =>
  defineVersions({
    head: { schemas: { User: user }, operations },
    versions: [{ name: 'v1' }, { name: 'v2', changes: [defineVersionChange({ description: 'd', instructions })] }],
  });
const problems = (...instructions: Instruction[]): string[] => {
  try {
    define(...instructions);
    return [];
  } catch (error) {
    return ((error as { errors: Array<{ detail: string }> }).errors ?? []).map((e) => e.detail);
  }
};
const route = (op: OperationSpec) => `${op.method} ${op.path}`;

describe('endpoint and transport instructions, undone on the newer version', () => {
  it('moves, removes and re-statuses routes, names in the newer version’s terms whatever the order', () => {
    const v1 = define(
      endpointMoved({ method: 'GET', path: '/people/{user_id}', previousPath: '/users/{user_id}' }),
      endpointMoved({
        method: 'POST',
        path: '/people/{user_id}/archive',
        previousPath: '/users/{user_id}',
        previousMethod: 'DELETE',
      }),
      // Listed after the move, it still names v2's route that serves it.
      endpointRemoved({ method: 'GET', path: '/accounts/{user_id}', upstreamPath: '/people/{user_id}' }),
      endpointRemoved({ method: 'GET', path: '/avatars/{user_id}' }),
      statusChanged({ method: 'POST', path: '/users', status: 201, previousStatus: 200 }),
      queryRenamed({ method: 'POST', path: '/users', name: 'page_size', previousName: 'limit' }),
      headerRenamed({ in: 'response', name: 'x-total-count', previousName: 'X-Count' }),
    ).get('v1')!;
    assert.deepEqual(v1.operations.map(route).sort(), [
      'DELETE /users/{user_id}',
      'GET /accounts/{user_id}',
      'GET /avatars/{user_id}',
      'GET /users/{user_id}',
      'POST /users',
    ]);
    const byId = new Map(v1.operations.map((op) => [op.id, op]));
    assert.deepEqual(Object.keys(byId.get('users.create')!.responses), ['200']);
    assert.deepEqual(byId.get('users.create')!.query, {
      type: 'object',
      properties: { limit: { type: 'integer' } },
      required: ['limit'],
    });
    assert.deepEqual(byId.get('people.get')!.responses[200]!.headers, ['ETag', 'X-Count?']);
    assert.equal(byId.get('get_accounts_user_id')!.responses[200]!.schema, 'User');
    assert.deepEqual(Object.keys(byId.get('get_avatars_user_id')!.responses), ['410']);
  });

  it('stops on every route, status and parameter the newer version lacks, naming each', () => {
    assert.deepEqual(
      problems(
        endpointMoved({ method: 'GET', path: '/nowhere', previousPath: '/old' }),
        endpointMoved({ method: 'GET', path: '/people/{user_id}', previousPath: '/users/{id}' }),
        endpointRemoved({ method: 'POST', path: '/users' }),
        endpointRemoved({ method: 'GET', path: '/legacy', upstreamPath: '/gone' }),
        statusChanged({ method: 'POST', path: '/users', status: 200, previousStatus: 202 }),
        queryRenamed({ method: 'POST', path: '/users', name: 'size', previousName: 'limit' }),
        headerRenamed({ in: 'request', name: 'X-Tag', previousName: 'X-Old', method: 'GET' }),
        endpointAdded('DELETE', '/users'),
      ).sort(),
      [
        'v2: endpoint-added names DELETE /users, which the version does not route',
        'v2: endpoint-moved /people/{user_id} and its previousPath /users/{id} must name the same parameters',
        'v2: endpoint-moved names GET /nowhere, which the version does not route',
        'v2: endpoint-removed names POST /users, which the version still routes',
        'v2: endpoint-removed upstreamPath names GET /gone, which the version does not route',
        'v2: header-renamed names a method and a path together, or neither (every endpoint)',
        'v2: query-renamed names size of POST /users, which it does not take',
        'v2: status-changed names status 200 of POST /users, which it does not document',
      ],
    );
  });

  it('follows a route up a chain, collecting each step’s transport changes', () => {
    const bundle = defineVersions({
      head: { schemas: { User: user }, operations },
      versions: [
        { name: 'v1' },
        {
          name: 'v2',
          changes: [
            defineVersionChange({
              description: 'Users move to /members.',
              instructions: [
                endpointMoved({ method: 'GET', path: '/members/{user_id}', previousPath: '/users/{user_id}' }),
              ],
            }),
          ],
        },
        {
          name: 'v3',
          changes: [
            defineVersionChange({
              description: 'Members move to /people, and a header is renamed.',
              instructions: [
                endpointMoved({ method: 'GET', path: '/people/{user_id}', previousPath: '/members/{user_id}' }),
                headerRenamed({ in: 'request', name: 'X-Trace', previousName: 'X-Tag' }),
              ],
            }),
          ],
        },
      ],
    });
    assert.equal(bundle.get('v1')!.operations.find((o) => o.id === 'people.get')!.path, '/users/{user_id}');
    const source = endpointSource(bundle.versions, {
      from: 0,
      to: 2,
      route: { method: 'GET', path: '/users/{user_id}' },
    });
    assert.deepEqual(source.route, { method: 'GET', path: '/people/{user_id}' });
    assert.deepEqual(
      source.steps.map((s) => [s.version, s.requestHeaders]),
      [
        ['v2', []],
        ['v3', [{ name: 'X-Trace', previousName: 'X-Tag' }]],
      ],
    );
  });
});
