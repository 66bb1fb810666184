import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineVersionChange, defineVersions, fieldAdded, fieldRemoved } from '../core/versions/index.ts';
import { hiddenInputFields, stillHidden } from './route-schemas.ts';

describe('hidden input fields', () => {
  const rename = defineVersionChange({
    description: '`customerName` is `customer`; `note` is new.',
    instructions: [
      fieldAdded('OrderInput', 'customer'),
      fieldAdded('OrderInput', 'note'),
      fieldRemoved({ schema: 'OrderInput', field: 'customerName', definition: { type: 'string' }, required: true }),
    ],
    requests: {
      OrderInput: (body) => ({ ...(body as object), customer: (body as { customerName: string }).customerName }),
    },
  });
  const bundle = defineVersions({
    head: {
      schemas: {
        OrderInput: {
          type: 'object',
          required: ['customer'],
          properties: { customer: { type: 'string' }, note: { type: 'string' } },
        },
      },
      operations: [
        {
          id: 'orders.replace',
          method: 'PUT',
          path: '/orders/{id}',
          summary: 's',
          body: 'OrderInput',
          responses: { 204: { description: 'ok' } },
        },
      ],
    },
    versions: [{ name: 'v1' }, { name: 'v2', changes: [rename] }],
  });
  const v1 = bundle.versions[0]!;

  it('are the head fields the version cannot name', () => {
    assert.deepEqual([...hiddenInputFields({ head: bundle.latest, version: v1, name: 'OrderInput' })].sort(), [
      'customer',
      'note',
    ]);
  });

  it('leave out what a request migration set, so a v1 replace changes a renamed field', () => {
    const hidden = hiddenInputFields({ head: bundle.latest, version: v1, name: 'OrderInput' });
    const body = bundle.migrations.requestUp({
      schema: 'OrderInput',
      body: { customerName: 'Ada' },
      from: v1,
      to: bundle.latest,
      operationId: 'orders.replace',
    });
    assert.deepEqual(body, { customer: 'Ada' });
    assert.deepEqual([...stillHidden({ hidden, sent: { customerName: 'Ada' }, body })], ['note']);
  });

  it('keep a field the client sent itself past an open schema: its version cannot write it', () => {
    const hidden = hiddenInputFields({ head: bundle.latest, version: v1, name: 'OrderInput' });
    const sent = { customerName: 'Ada', note: 'sneaked in' };
    const body = bundle.migrations.requestUp({
      schema: 'OrderInput',
      body: sent,
      from: v1,
      to: bundle.latest,
      operationId: 'orders.replace',
    });
    assert.deepEqual([...stillHidden({ hidden, sent, body })], ['note']);
  });

  it('are returned as they are when nothing was set', () => {
    const hidden = new Set(['note']);
    assert.equal(stillHidden({ hidden, sent: { customer: 'Ada' }, body: { customer: 'Ada' } }), hidden);
    assert.equal(stillHidden({ hidden, sent: undefined, body: undefined }), hidden);
  });
});
