import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** A validator that never changes what it checks: no coercion, no defaults, no removed members. */
export function createStrictAjv(allErrors: boolean): Ajv {
  // Not strict: schemas carry OpenAPI's annotations (`example`, `x-…`) and formats such as int64.
  return addFormats(
    new Ajv({
      strict: false,
      allErrors,
      coerceTypes: false,
      useDefaults: false,
      removeAdditional: false,
      addUsedSchema: false,
    }),
  );
}

/**
 * The request validator of the plugin's routes, set on each route so that no server option can
 * loosen it: Fastify's default removes unknown members, coerces types and fills defaults, so a v1
 * body with a v2-only field would pass with the field dropped in silence. Here every error is
 * listed and an unknown field is a 400 naming it. Integer query members are converted beforehand,
 * from their canonical text only (`integerCoercion`).
 */
export function createRequestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const ajv = createStrictAjv(true);
  return ({ schema }) => ajv.compile(schema as object);
}
