import { defineVersionChange, deprecatedFieldRemoved, fieldAdded, type SchemaMap } from '../../../src/index.ts';

// The head, v3: `deliveryNote` has replaced `note`, which v2 deprecated.
const deliveryNote = { type: 'string', maxLength: 500 };
export const schemas: SchemaMap = {
  Order: {
    type: 'object',
    required: ['id', 'customer'],
    properties: { id: { type: 'integer' }, customer: { type: 'string' }, deliveryNote },
  },
  // Closed: a field its version lacks (`note` in v3) never reaches the handler.
  OrderInput: {
    type: 'object',
    additionalProperties: false,
    required: ['customer'],
    properties: { customer: { type: 'string' }, deliveryNote },
  },
};

// v2 adds the new field beside the old one: v2 clients may send either while they move.
export const addDeliveryNote = defineVersionChange({
  description: 'Orders gain `deliveryNote`, which replaces `note` (deprecated in v2).',
  instructions: [fieldAdded('Order', 'deliveryNote'), fieldAdded('OrderInput', 'deliveryNote')],
});

// v3 removes the deprecated field: v1 and v2 still have it, filled from `deliveryNote`.
export const removeNote = defineVersionChange({
  description: '`note`, deprecated in v2, is removed: use `deliveryNote`.',
  instructions: ['Order', 'OrderInput'].map((schema) =>
    deprecatedFieldRemoved({
      schema,
      field: 'note',
      deprecatedIn: 'v2',
      definition: { type: 'string', maxLength: 500 },
    }),
  ),
  responses: {
    Order: (body) => {
      const order = body as { deliveryNote?: string };
      return order.deliveryNote === undefined ? order : { ...order, note: order.deliveryNote };
    },
  },
  requests: {
    OrderInput: (body) => {
      const { note, ...input } = body as { note?: string; deliveryNote?: string };
      return note === undefined || input.deliveryNote !== undefined ? input : { ...input, deliveryNote: note };
    },
  },
});
