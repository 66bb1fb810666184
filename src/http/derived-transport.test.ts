import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointSource, OperationSpec } from '../core/versions/index.ts';
import { headersDown, headersUp, statusDown, upstreamTarget } from './derived-transport.ts';

const operation: OperationSpec = { id: 'u', method: 'GET', path: '/users/{user_id}', summary: '', responses: {} };
const step = (version: string, over: Partial<EndpointSource['steps'][number]>) => ({
  version,
  statuses: [],
  requestHeaders: [],
  responseHeaders: [],
  query: [],
  ...over,
});
const endpoint: EndpointSource = {
  route: { method: 'GET', path: '/people/{user_id}' },
  steps: [
    step('v2', { query: [{ name: 'size', previousName: 'limit' }], statuses: [{ status: 201, previousStatus: 200 }] }),
    step('v3', {
      query: [{ name: 'page_size', previousName: 'size' }],
      statuses: [{ status: 202, previousStatus: 201 }],
      requestHeaders: [{ name: 'X-Trace', previousName: 'X-Tag' }],
      responseHeaders: [{ name: 'X-Total-Count', previousName: 'X-Count' }],
    }),
  ],
};

describe('a derived call’s transport, translated step by step', () => {
  it('goes up at the newest route, its segments as sent, each query name renamed in turn', () => {
    assert.equal(upstreamTarget(endpoint, operation, '/users/a%2Fb?limit=2&x=1'), '/people/a%2Fb?page_size=2&x=1');
    assert.equal(upstreamTarget(endpoint, operation, '/users/7'), '/people/7');
    assert.equal(upstreamTarget(endpoint, operation, '/users/7?'), '/people/7?');
  });

  it('renames headers up and down, and undoes statuses newest first', () => {
    assert.deepEqual(headersUp(endpoint, { 'x-tag': 'a', accept: '*/*' }), { accept: '*/*', 'x-trace': 'a' });
    const answer: Record<string, string> = { 'x-total-count': '3' };
    headersDown(endpoint, answer);
    assert.deepEqual(answer, { 'x-count': '3' });
    assert.equal(statusDown(endpoint, 202), 200);
    assert.equal(statusDown(endpoint, 201), 200);
    assert.equal(statusDown(endpoint, 404), 404);
  });
});
