import type { FastifyRequest } from 'fastify';
import { routeSteps } from './pipeline/request-pipeline.ts';

// Canonical decimal integers only: `0x10`, `1e1`, ` 5` and `05` stay strings and fail validation.
export const integerText = /^-?(?:0|[1-9][0-9]{0,15})$/;

/** `integer` query members from canonical text to numbers, validated then without loose coercion. */
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

/** A route's config with the `input:query-integers` step, for routes outside the versioned API. */
export function queryIntegerSteps(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const coerce = integerCoercion(schema);
  return routeSteps(coerce ? [{ name: 'query-integers', phase: 'input', run: (request) => coerce(request) }] : []);
}
