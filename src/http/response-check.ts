import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { withoutRequired, type ApiVersion, type JsonSchema } from '../core/versions/index.ts';
import { toRouteSchema } from './route-schemas.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Where a response first breaks its schema: a JSON pointer into the body, and what is wrong. */
export interface ResponseViolation {
  pointer: string;
  detail: string;
}

/** Checks one response body against its version's schema; `undefined` when it conforms. */
export type ResponseCheck = (body: unknown) => ResponseViolation | undefined;

/**
 * Compile response checks, one per version and component schema, shared by the operations that
 * answer with it. The validator is separate from Fastify's request validator on purpose: that
 * one coerces types, fills defaults and removes members, and a check must never change the body
 * it checks (a handler may hand over an object it keeps).
 */
export function createResponseChecks(): {
  of(options: { version: ApiVersion; name: string }): ResponseCheck;
  /**
   * The check of a partial response (`fields=`): the body of `name` in which every `target`
   * object is checked without its `required` list, since a sparse fieldset leaves members out on
   * purpose. What a kept member owes is checked where the projection keeps it
   * (`FieldSelection.projectChecked`). One compiled check per schema and target, whatever
   * the fieldset: a client choosing fieldsets never makes the server compile.
   */
  partialOf(options: { version: ApiVersion; name: string; target: string }): ResponseCheck;
} {
  // Not strict: schemas carry OpenAPI's annotations (`example`, `x-…`) and formats such as int64.
  const ajv = addFormats(
    new Ajv({
      strict: false,
      allErrors: false,
      coerceTypes: false,
      useDefaults: false,
      removeAdditional: false,
      addUsedSchema: false,
    }),
  );
  const cache = new Map<string, ResponseCheck>();
  const added = new Set<string>();
  /** A check of `name` among a version's components, as `loosen` leaves them; compiled once per key. */
  const checkOf = (options: {
    version: ApiVersion;
    name: string;
    id: string;
    loosen?: (definitions: Record<string, unknown>) => Record<string, unknown>;
  }): ResponseCheck => {
    const { version, name, id } = options;
    const key = `${id} ${name}`;
    let check = cache.get(key);
    if (!check) {
      // Each version's components are added once and compiled once, shared by its checks.
      if (!added.has(id)) {
        const definitions = toRouteSchema({ version, name }).definitions as Record<string, unknown>;
        ajv.addSchema({ $id: id, definitions: options.loosen ? options.loosen(definitions) : definitions });
        added.add(id);
      }
      const validate = ajv.compile({ $ref: `${id}#/definitions/${name}` });
      check = (body) => (validate(body) ? undefined : toViolation(validate));
      cache.set(key, check);
    }
    return check;
  };
  return {
    of: ({ version, name }) => checkOf({ version, name, id: `versionary:${version.name}` }),
    partialOf: ({ version, name, target }) =>
      checkOf({
        version,
        name,
        id: `versionary:${version.name}:partial:${target}`,
        loosen: (definitions) => ({ ...definitions, [target]: withoutRequired(definitions[target] as JsonSchema) }),
      }),
  };
}

function toViolation(validate: ValidateFunction): ResponseViolation {
  const error = (validate.errors ?? [])[0] as ErrorObject | undefined;
  if (!error) return { pointer: '', detail: 'does not match the schema' };
  const member = error.params.missingProperty ?? error.params.additionalProperty;
  const pointer = `${error.instancePath}${member !== undefined ? `/${String(member)}` : ''}`;
  if (error.keyword === 'required') return { pointer, detail: 'is required' };
  if (error.keyword === 'additionalProperties') return { pointer, detail: 'is not in the schema' };
  return { pointer, detail: error.message ?? `fails ${error.keyword}` };
}
