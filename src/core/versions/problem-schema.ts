import type { JsonSchema } from './types.ts';

/**
 * The RFC 9457 problem details schema every error response uses. Extension members (such as
 * `supportedVersions` or `requiredRole`) may follow; the bounds hold for every problem the
 * service writes (validation lists at most 20 errors, `fields` names at most a thousand).
 */
export const problemSchema: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: {
      type: 'string',
      format: 'uri-reference',
      maxLength: 2000,
      description: 'URI reference identifying the problem type.',
    },
    title: { type: 'string', maxLength: 200 },
    status: { type: 'integer', format: 'int32', minimum: 100, maximum: 599 },
    detail: { type: 'string', maxLength: 100_000 },
    instance: { type: 'string', maxLength: 100_000, description: 'The path of the request, as the client sent it.' },
    code: { type: 'string', pattern: '^[A-Z_]+$', maxLength: 60, description: 'Stable Versionary error code.' },
    errors: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        properties: {
          pointer: {
            type: 'string',
            maxLength: 2000,
            description: 'Where the error is: `/body/...`, `/query/...` or `/headers/...`.',
          },
          detail: { type: 'string', maxLength: 2000 },
        },
      },
    },
  },
};
