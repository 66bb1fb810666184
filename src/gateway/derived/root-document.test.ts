import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rootDocumentFacts } from './root-document.ts';

const json = (name: string, type = 'application/json') => ({
  description: '',
  content: { [type]: { schema: { $ref: `#/components/schemas/${name}` } } },
});

describe('rootDocumentFacts', () => {
  it('reads 2XX and default JSON responses by method and path below the base, and required bodies', () => {
    const document = {
      paths: {
        '/api/v2/users/{user_id}': {
          get: {
            operationId: 'get_user',
            responses: { '200': json('User'), '2xx': json('User', 'application/hal+json') },
          },
          put: {
            operationId: 'replace_user',
            requestBody: { required: true },
            responses: { default: json('Problem', 'application/problem+json') },
          },
        },
        '/api/v2/inline': {
          get: {
            operationId: 'inline',
            responses: { '2XX': { content: { 'application/json': { schema: { type: 'object' } } } } },
          },
        },
      },
    };
    const facts = rootDocumentFacts(document, '/api/v2');
    assert.deepEqual(facts.ranges, {
      'GET /users/{user_id}': { '2XX': 'User' },
      'PUT /users/{user_id}': { DEFAULT: 'Problem' },
    });
    // Required bodies by route, whatever the operation's id.
    assert.deepEqual([...facts.requiredBodies], ['PUT /users/{user_id}']);
  });

  it('reads QUERY from `query` (3.2) or `x-query` (3.1)', () => {
    const search = { requestBody: { required: true }, responses: { '2XX': json('Found') } };
    const facts = rootDocumentFacts({ paths: { '/a': { query: search }, '/b': { 'x-query': search } } }, '/api/v2');
    assert.deepEqual(facts.ranges, { 'QUERY /a': { '2XX': 'Found' }, 'QUERY /b': { '2XX': 'Found' } });
    assert.deepEqual([...facts.requiredBodies], ['QUERY /a', 'QUERY /b']);
  });

  it('reads nothing from a document without paths', () => {
    assert.deepEqual(rootDocumentFacts({}, '/api/v2').ranges, {});
  });
});
