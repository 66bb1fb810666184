import { defineVersionChange, fieldAdded, fieldRemoved, ref, type SchemaMap } from '../../../src/index.ts';

// The head, v2: v1's top-level `city` moves into an `address` object.
export const schemas: SchemaMap = {
  Address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
  Order: {
    type: 'object',
    required: ['id', 'address'],
    properties: { id: { type: 'integer' }, address: ref('Address') },
  },
  OrderInput: { type: 'object', required: ['address'], properties: { address: ref('Address') } },
};

export const cityIntoAddress = defineVersionChange({
  description: '`city` moves into the new `address` object: `{ "address": { "city": "Paris" } }`.',
  instructions: ['Order', 'OrderInput'].flatMap((schema) => [
    fieldAdded(schema, 'address'),
    fieldRemoved({ schema, field: 'city', definition: { type: 'string' }, required: true }),
  ]),
  responses: {
    Order: (body) => {
      const order = body as { address: { city: string } };
      return { ...order, city: order.address.city };
    },
  },
  requests: {
    OrderInput: (body) => {
      const input = body as { city: string };
      return { ...input, address: { city: input.city } };
    },
  },
});
