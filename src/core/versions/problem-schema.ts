import type { JsonSchema } from './types.ts';

/**
 * The RFC 9457 problem details schema every error response uses.
 *
 * @example
 * ```ts
 * schemas.Problem = problemSchema;
 * ```
 */
export const problemSchema: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', description: 'URI reference identifying the problem type.' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    code: { type: 'string', description: 'Stable Versionary error code.' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { pointer: { type: 'string' }, detail: { type: 'string' } } },
    },
  },
};
