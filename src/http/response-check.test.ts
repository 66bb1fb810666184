import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineVersions, ref } from '../core/versions/index.ts';
import { createResponseChecks } from './response-check.ts';

const bundle = defineVersions({
  head: {
    schemas: {
      Order: {
        type: 'object',
        required: ['id', 'lines'],
        properties: { id: { type: 'integer', format: 'int64' }, lines: { type: 'array', items: ref('Line') } },
      },
      Line: {
        type: 'object',
        additionalProperties: false,
        required: ['sku'],
        properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
      },
    },
    operations: [
      {
        id: 'orders.get',
        method: 'GET',
        path: '/orders/{id}',
        summary: 'Get an order',
        responses: { 200: { description: 'The order', schema: 'Order' } },
      },
    ],
  },
  versions: [{ name: 'v1' }],
});

test('a violation is named by a JSON pointer into the body, through refs and arrays', () => {
  const check = createResponseChecks().of({ version: bundle.latest, name: 'Order' });
  assert.equal(check({ id: 1, lines: [{ sku: 'a', quantity: 2 }] }), undefined);
  assert.deepEqual(check({ id: 1 }), { pointer: '/lines', detail: 'is required' });
  assert.deepEqual(check({ id: 1, lines: [{ sku: 'a' }, { sku: 'b', quantity: 0 }] }), {
    pointer: '/lines/1/quantity',
    detail: 'must be >= 1',
  });
  assert.deepEqual(check({ id: 1, lines: [{ sku: 'a', colour: 'red' }] }), {
    pointer: '/lines/0/colour',
    detail: 'is not in the schema',
  });
  assert.deepEqual(check({ id: '1', lines: [] }), { pointer: '/id', detail: 'must be integer' });
});

test('one compiled check per version and schema', () => {
  const checks = createResponseChecks();
  assert.equal(
    checks.of({ version: bundle.latest, name: 'Order' }),
    checks.of({ version: bundle.latest, name: 'Order' }),
  );
});
