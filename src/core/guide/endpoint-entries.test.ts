import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointGuideEntries } from './element-entries.ts';

const sunsetAt = Date.parse('2027-02-01T00:00:00Z');
const deprecations = [
  { version: 'v1', method: 'get', path: '/users/{id}/posts', sunsetAt },
  { version: 'v1', method: 'DELETE', path: '/users/{id}', sunsetAt },
  { version: 'v2', method: 'GET', path: '/users', sunsetAt },
];

describe('endpointGuideEntries', () => {
  it("lists only the version's endpoints, each with the successor's operation when it still has it", () => {
    const successor = { name: 'v2', operations: [{ method: 'GET', path: '/users/{id}/posts' }] };
    const entries = endpointGuideEntries({
      deprecations,
      version: 'v1',
      successor,
      basePath: '/api',
    });
    assert.deepEqual(
      entries.map((e) => [e.endpoint, e.newBehaviour, e.rule]),
      [
        [
          'GET /api/users/{id}/posts',
          'call it in v2 instead; it is removed after 2027-02-01T00:00:00Z',
          'endpoint-deprecated',
        ],
        [
          'DELETE /api/users/{id}',
          'no replacement is declared: stop calling it; it is removed after 2027-02-01T00:00:00Z',
          'endpoint-deprecated',
        ],
      ],
    );
  });
});
