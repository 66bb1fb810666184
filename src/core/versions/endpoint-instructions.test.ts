import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readVersionChanges } from './change-file.ts';

const file = (instructions: unknown[]) => [{ version: 'v2', description: 'Routes change.', instructions }];

describe('a change file’s endpoint and transport instructions', () => {
  it('reads each op as defineVersionChange takes it', () => {
    const { changes, problems } = readVersionChanges(
      file([
        {
          op: 'endpoint-moved',
          method: 'GET',
          path: '/people/{id}',
          previousPath: '/users/{id}',
          previousMethod: 'GET',
        },
        { op: 'endpoint-removed', method: 'GET', path: '/legacy', upstreamPath: '/users', operationId: 'legacy' },
        { op: 'endpoint-removed', method: 'DELETE', path: '/users/{id}' },
        { op: 'status-changed', method: 'POST', path: '/users', status: 201, previousStatus: 200 },
        { op: 'header-renamed', in: 'response', name: 'X-Total-Count', previousName: 'X-Count' },
        { op: 'query-renamed', method: 'GET', path: '/users', name: 'page_size', previousName: 'limit' },
      ]),
    );
    assert.deepEqual(problems, []);
    assert.equal(changes[0]!.change.instructions.length, 6);
  });

  it('lists every mistake of shape at once, each with its place', () => {
    const { problems } = readVersionChanges(
      file([
        { op: 'endpoint-moved', method: 'FETCH', path: 'people', previousPath: '/users' },
        { op: 'status-changed', method: 'POST', path: '/users', status: 'created', previousStatus: 700 },
        { op: 'header-renamed', in: 'body', name: 'X Count', previousName: 'X-Count', extra: 1 },
        { op: 'query-renamed', method: 'GET', path: '/users', name: 'page_size' },
      ]),
    );
    assert.deepEqual(problems, [
      '[0].instructions[0].method: must be one of GET, POST, PUT, PATCH, DELETE, QUERY',
      '[0].instructions[0].path: must be a path starting with "/"',
      '[0].instructions[1].status: must be an HTTP status (100 to 599)',
      '[0].instructions[1].previousStatus: must be an HTTP status (100 to 599)',
      '[0].instructions[2].extra: is not a member of header-renamed',
      '[0].instructions[2].in: must be "request" or "response"',
      '[0].instructions[2].name: must be a header name',
      '[0].instructions[3].previousName: is required by query-renamed',
    ]);
  });
});
