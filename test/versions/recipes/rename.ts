import { defineVersionChange, fieldAdded, fieldRemoved, type SchemaMap } from '../../../src/index.ts';

// The head, v2: what v1 called `customerName` is now `customer`.
export const schemas: SchemaMap = {
  Order: {
    type: 'object',
    required: ['id', 'customer'],
    properties: { id: { type: 'integer' }, customer: { type: 'string' } },
  },
  OrderInput: { type: 'object', required: ['customer'], properties: { customer: { type: 'string' } } },
};

export const renameCustomer = defineVersionChange({
  description: '`customerName` is renamed `customer`, in requests and responses.',
  instructions: ['Order', 'OrderInput'].flatMap((schema) => [
    fieldAdded(schema, 'customer'),
    fieldRemoved({ schema, field: 'customerName', definition: { type: 'string' }, required: true }),
  ]),
  // A migration sees the whole body of its own version; the target version's schema then drops
  // the field it lacks (`customer` on the way down, `customerName` on the way up).
  responses: {
    Order: (body) => {
      const order = body as { customer: string };
      return { ...order, customerName: order.customer };
    },
  },
  requests: {
    OrderInput: (body) => {
      const input = body as { customerName: string };
      return { ...input, customer: input.customerName };
    },
  },
});
