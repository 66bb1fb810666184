import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rangeResponses } from './range-responses.ts';

const json = (name: string, type = 'application/json') => ({
  description: '',
  content: { [type]: { schema: { $ref: `#/components/schemas/${name}` } } },
});

describe('rangeResponses', () => {
  it('reads 2XX and default JSON responses by method and path below the base', () => {
    const document = {
      paths: {
        '/api/v2/users/{user_id}': {
          get: {
            operationId: 'get_user',
            responses: { '200': json('User'), '2xx': json('User', 'application/hal+json') },
          },
          put: { responses: { default: json('Problem', 'application/problem+json') } },
        },
        '/api/v2/inline': {
          get: {
            operationId: 'inline',
            responses: { '2XX': { content: { 'application/json': { schema: { type: 'object' } } } } },
          },
        },
      },
    };
    assert.deepEqual(rangeResponses(document, '/api/v2'), {
      'GET /users/{user_id}': { '2XX': 'User' },
      'PUT /users/{user_id}': { DEFAULT: 'Problem' },
    });
  });

  it('reads nothing from a document without paths', () => {
    assert.deepEqual(rangeResponses({}, '/api/v2'), {});
  });
});
