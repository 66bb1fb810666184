import type { ErrorObject, ValidateFunction } from 'ajv';
import { withoutRequired, type ApiVersion, type JsonSchema } from '../core/versions/index.ts';
import { createStrictAjv } from './request-validator.ts';
import { toRouteSchema } from './route-schemas.ts';

/** Where a response first breaks its schema: a JSON pointer into the body, and what is wrong. */
export interface ResponseViolation {
  pointer: string;
  detail: string;
}

/** Checks one response body against its version's schema; `undefined` when it conforms. */
export type ResponseCheck = (body: unknown) => ResponseViolation | undefined;

/** Response checks, one per version and schema; not Fastify's validator, which changes what it checks. */
export function createResponseChecks(): {
  of(options: { version: ApiVersion; name: string }): ResponseCheck;
  /** A partial response's check: `target` without `required`, compiled once per schema and target. */
  partialOf(options: { version: ApiVersion; name: string; target: string }): ResponseCheck;
} {
  const ajv = createStrictAjv(false);
  const cache = new Map<string, ResponseCheck>();
  const added = new Set<string>();
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
