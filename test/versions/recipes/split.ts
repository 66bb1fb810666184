import { defineVersionChange, fieldAdded, fieldRemoved, type SchemaMap } from '../../../src/index.ts';

// The head, v2: v1's `customerName` is split into `firstName` and `lastName`.
const customer = { firstName: { type: 'string' }, lastName: { type: 'string' } };
export const schemas: SchemaMap = {
  Order: {
    type: 'object',
    required: ['id', 'firstName', 'lastName'],
    properties: { id: { type: 'integer' }, ...customer },
  },
  OrderInput: { type: 'object', required: ['firstName', 'lastName'], properties: customer },
};

export const splitCustomerName = defineVersionChange({
  description: '`customerName` is split into `firstName` and `lastName`.',
  instructions: ['Order', 'OrderInput'].flatMap((schema) => [
    fieldAdded(schema, 'firstName'),
    fieldAdded(schema, 'lastName'),
    fieldRemoved({ schema, field: 'customerName', definition: { type: 'string' }, required: true }),
  ]),
  responses: {
    Order: (body) => {
      const order = body as { firstName: string; lastName: string };
      return { ...order, customerName: `${order.firstName} ${order.lastName}`.trim() };
    },
  },
  requests: {
    // v1 had one string: the last word is the last name, the rest the first.
    OrderInput: (body) => {
      const input = body as { customerName: string };
      const words = input.customerName.trim().split(/\s+/);
      return { ...input, lastName: words.pop() ?? '', firstName: words.join(' ') };
    },
  },
});
