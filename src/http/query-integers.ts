import type { FastifyRequest } from 'fastify';

// Canonical decimal integers only: `0x10`, `1e1`, ` 5` and `05` stay strings and fail validation.
const integerText = /^-?(?:0|[1-9][0-9]{0,15})$/;

/**
 * A `preValidation` hook that turns the query members an object schema types as `integer` from
 * their canonical decimal text into numbers, so the route validates the query against the very
 * schema the OpenAPI document publishes (`type: integer` with its `minimum` and `maximum`)
 * without the validator's loose coercion.
 */
export function integerQuery(schema: Record<string, unknown> | undefined): (request: FastifyRequest) => Promise<void> {
  const coerce = integerCoercion(schema);
  return async (request) => coerce(request);
}

/** The same conversion, synchronous, for a hook that composes it with others (`versioned-api.ts`). */
export function integerCoercion(schema: Record<string, unknown> | undefined): (request: FastifyRequest) => void {
  const properties = (schema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const names = Object.keys(properties).filter((name) => properties[name]?.type === 'integer');
  return (request) => {
    if (names.length === 0) return;
    const query = request.query as Record<string, unknown>;
    for (const name of names) {
      const value = query[name];
      if (typeof value === 'string' && integerText.test(value)) query[name] = Number(value);
    }
  };
}
