import type { FastifyRequest } from 'fastify';
import { routeSteps } from './pipeline/request-pipeline.ts';

// Canonical decimal integers only: `0x10`, `1e1`, ` 5` and `05` stay strings and fail validation.
const integerText = /^-?(?:0|[1-9][0-9]{0,15})$/;

/**
 * A step's conversion (`input:query-integers`): the query members an object schema types as
 * `integer`, from their canonical decimal text into numbers, so the route validates the query
 * against the very schema the OpenAPI document publishes (`type: integer` with its `minimum` and
 * `maximum`) without the validator's loose coercion; `undefined` for a query with no integer
 * member, which then needs no step at all.
 */
export function integerCoercion(
  schema: Record<string, unknown> | undefined,
): ((request: FastifyRequest) => void) | undefined {
  const properties = (schema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const names = Object.keys(properties).filter((name) => properties[name]?.type === 'integer');
  if (names.length === 0) return undefined;
  return (request) => {
    const query = request.query as Record<string, unknown>;
    for (const name of names) {
      const value = query[name];
      if (typeof value === 'string' && integerText.test(value)) query[name] = Number(value);
    }
  };
}

/**
 * A route's config with the `input:query-integers` step for `schema` (none when it types no
 * integer), for routes outside the versioned API (the management API's lists).
 *
 * @example
 * ```ts
 * app.get('/versions/:name/calls', { schema, config: queryIntegerSteps(schema.querystring) }, handler);
 * ```
 */
export function queryIntegerSteps(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const coerce = integerCoercion(schema);
  return routeSteps(coerce ? [{ name: 'query-integers', phase: 'input', run: (request) => coerce(request) }] : []);
}
