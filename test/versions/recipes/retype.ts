import { defineVersionChange, fieldRetyped, type SchemaMap } from '../../../src/index.ts';

// The head, v2: `total` is an integer number of cents; v1 sent and took a decimal string.
const total = { type: 'integer', minimum: 0, maximum: 999_999_999 };
export const schemas: SchemaMap = {
  Order: { type: 'object', required: ['id', 'total'], properties: { id: { type: 'integer' }, total } },
  OrderInput: { type: 'object', required: ['total'], properties: { total } },
};

export const totalInCents = defineVersionChange({
  description: '`total` is an integer number of cents instead of a decimal string: `4250`, not `"42.50"`.',
  instructions: ['Order', 'OrderInput'].map((schema) =>
    fieldRetyped({ schema, field: 'total', previous: { type: 'string', pattern: '^[0-9]{1,7}\\.[0-9]{2}$' } }),
  ),
  responses: {
    Order: (body) => {
      const order = body as { total: number };
      return { ...order, total: (order.total / 100).toFixed(2) };
    },
  },
  requests: {
    OrderInput: (body) => {
      const input = body as { total: string };
      const [units, cents] = input.total.split('.');
      return { ...input, total: Number(units) * 100 + Number(cents) };
    },
  },
});
