import { defineVersionChange, endpointAdded, type OperationSpec, type SchemaMap } from '../../../src/index.ts';

// The head, v2, adds an operation; its handler is written like any other.
export const schemas: SchemaMap = {
  Order: {
    type: 'object',
    required: ['id', 'customer'],
    properties: { id: { type: 'integer' }, customer: { type: 'string' } },
  },
  OrderInput: { type: 'object', required: ['customer'], properties: { customer: { type: 'string' } } },
  Receipt: {
    type: 'object',
    required: ['orderId', 'text'],
    properties: { orderId: { type: 'integer' }, text: { type: 'string' } },
  },
};
export const receipt: OperationSpec = {
  id: 'orders.receipt',
  method: 'GET',
  path: '/orders/{id}/receipt',
  summary: 'The receipt of an order',
  responses: { 200: { description: 'The receipt', schema: 'Receipt' }, 404: { description: 'No such order' } },
};

export const addReceipt = defineVersionChange({
  description: 'New: `GET /orders/{id}/receipt`. v1 does not route it (404).',
  instructions: [endpointAdded('GET', '/orders/{id}/receipt')],
});
