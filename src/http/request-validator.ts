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
 * The plugin routes' own validator, which no server option can loosen: Fastify's default drops
 * unknown members, coerces and fills defaults; here an unknown field is a 400 naming it.
 */
export function createRequestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const ajv = createStrictAjv(true);
  return ({ schema }) => ajv.compile(schema as object);
}
