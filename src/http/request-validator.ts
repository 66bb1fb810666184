import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * The request validator of the plugin's routes, set on each route so that no server option can
 * loosen it: bodies, queries and parameters are checked as the version's document states them.
 * Fastify's default validator removes unknown members (`removeAdditional`), coerces types and fills
 * defaults, so a v1 body with a v2-only field would pass with the field dropped in silence, while
 * the document says `additionalProperties: false`. Here every error is listed, nothing is changed,
 * and an unknown field is a 400 naming it. Integer query members are converted beforehand, from
 * their canonical text only (`integerCoercion`).
 */
export function createRequestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  // Not strict: schemas carry OpenAPI's annotations (`example`, `x-…`) and formats such as int64.
  const ajv = addFormats(
    new Ajv({
      strict: false,
      allErrors: true,
      coerceTypes: false,
      useDefaults: false,
      removeAdditional: false,
      addUsedSchema: false,
    }),
  );
  return ({ schema }) => ajv.compile(schema as object);
}
