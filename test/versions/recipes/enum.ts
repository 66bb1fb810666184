import { defineVersionChange, enumValuesAdded, enumValuesRemoved, type SchemaMap } from '../../../src/index.ts';

// The head, v2: `shipping` gains `pickup` and loses `overnight`, now sold as `express`.
const shipping = { type: 'string', enum: ['standard', 'express', 'pickup'] };
export const schemas: SchemaMap = {
  Order: { type: 'object', required: ['id', 'shipping'], properties: { id: { type: 'integer' }, shipping } },
  OrderInput: { type: 'object', required: ['shipping'], properties: { shipping } },
};

export const shippingOptions = defineVersionChange({
  description:
    '`shipping` gains `pickup` (shown to v1 as `standard`) and drops `overnight` (a v1 order for it ships `express`).',
  instructions: ['Order', 'OrderInput'].flatMap((schema) => [
    enumValuesAdded({ schema, field: 'shipping', values: ['pickup'], mapDownTo: { pickup: 'standard' } }),
    enumValuesRemoved({ schema, field: 'shipping', values: ['overnight'], mapUpTo: { overnight: 'express' } }),
  ]),
});
