import { echo, ErrorCode, VersionaryError, type FieldError } from '../../core/errors/index.ts';
import { refName, type ApiVersion, type JsonSchema, type OperationSpec } from '../../core/versions/index.ts';
import { decoded } from '../../http/derived-transport.ts';
import { fromFrameworkError } from '../../http/fastify-errors.ts';
import { integerText } from '../../http/query-integers.ts';
import { createRequestValidatorCompiler } from '../../http/request-validator.ts';
import { toRouteSchema } from '../../http/route-schemas.ts';
import type { createMemberWalk } from './declared-members.ts';

/** Problems listed at most, as the service's validator lists them. */
const listed = 20;

/**
 * The check of a derived version's request bodies in its own terms, before any migration: its
 * document's schema, then members it does not declare (a newer version's, where the upstream's
 * schema leaves members open, as FastAPI's do) and a `__proto__` anywhere; a failure is a 400.
 */
export function createOldRequestCheck(
  version: ApiVersion,
  /** The version's member walk, shared with its answers' (one set of compiled shapes). */
  walk: ReturnType<typeof createMemberWalk>,
): (name: string, body: unknown) => VersionaryError | undefined {
  const compile = createRequestValidatorCompiler();
  const validators = new Map<string, ReturnType<typeof compile>>();
  // One schema for reads and writes: a member it marks readOnly is required of answers only.
  const writable = { ...version, schemas: withoutReadOnlyRequired(version.schemas) as ApiVersion['schemas'] };
  return (name, body) => {
    let validate = validators.get(name);
    if (!validate) {
      const schema = toRouteSchema({ version: writable, name });
      validate = compile({ schema, method: 'POST', url: '', httpPart: 'body' });
      validators.set(name, validate);
    }
    const result = validate(body);
    const errors = (validate as { errors?: unknown }).errors;
    if (result === false && Array.isArray(errors))
      return fromFrameworkError({ validation: errors, validationContext: 'body' });
    const problems: FieldError[] = [];
    const misfit = walk(name, body, ({ key, pointer }) => {
      if (problems.length < listed)
        problems.push({
          pointer: echo(`/body${pointer}`),
          detail: `unknown field "${echo(key)}" for this API version`,
        });
    });
    const poisoned = protoPointer(body);
    if (poisoned !== undefined && !problems.some((p) => p.pointer === poisoned))
      problems.unshift({ pointer: echo(poisoned), detail: 'a member named __proto__ is not accepted' });
    if (misfit !== undefined && problems.length === 0)
      problems.push({ pointer: echo(`/body${misfit === '/' ? '' : misfit}`), detail: 'matches none of its schemas' });
    if (problems.length === 0) return undefined;
    const first = problems[0]!;
    return new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: `The body is invalid: ${first.pointer} ${first.detail}.`,
      errors: problems.slice(0, listed),
    });
  };
}

/** Where the body has a member named `__proto__` (JSON.parse makes it an own member), as `/body/...`. */
function protoPointer(body: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[body, '/body']];
  while (stack.length > 0) {
    const [value, pointer] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    for (const key of Object.keys(value)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (key === '__proto__') return at;
      stack.push([(value as Record<string, unknown>)[key], at]);
    }
  }
  return undefined;
}

/**
 * The schemas with every `readOnly` member left out of `required` (OpenAPI: such a member is
 * required of responses only), at any depth; a client may still send one, as the document allows.
 */
function withoutReadOnlyRequired(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutReadOnlyRequired);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = withoutReadOnlyRequired(child);
  const properties = out.properties as Record<string, { readOnly?: unknown } | undefined> | undefined;
  if (Array.isArray(out.required) && properties && typeof properties === 'object')
    out.required = out.required.filter((name) => properties[name as string]?.readOnly !== true);
  return out;
}

type Validate = ((value: unknown) => boolean) & { errors?: unknown };

/**
 * The check of a derived version's path and query parameters in its own terms, compiled once per
 * operation: each value typed as its schema says, then validated as the service does. A bad path
 * segment is a 404 (the spec's "invalid ID"); a bad query, or one naming a parameter the operation
 * does not declare (a newer version's filter must not reach the upstream), a 400.
 */
export function createOldParameterCheck(
  version: ApiVersion,
): (operation: OperationSpec, at: { path: string; query: string }) => VersionaryError | undefined {
  const compile = createRequestValidatorCompiler();
  const components = { schemas: version.schemas };
  // One operation's compiled check: its path template as a pattern, its parameters' validators.
  const compileOf = (operation: OperationSpec) => {
    const names: string[] = [];
    const source = operation.path.replace(/\{([^}]+)\}|[^{]+/g, (part, name: string | undefined) => {
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    });
    // Closed, as the service's: a name the operation does not declare is refused.
    const query = { type: 'object', ...operation.query, additionalProperties: false, components };
    const params = operation.params ? { ...operation.params, components } : undefined;
    const validator = (schema: object) =>
      compile({ schema, method: 'GET', url: '', httpPart: 'querystring' }) as Validate;
    return {
      names,
      pattern: new RegExp(`^${source}$`),
      params: params && validator(params),
      query: validator(query),
      paramSchemas: (operation.params?.properties ?? {}) as Record<string, JsonSchema>,
      querySchemas: (operation.query?.properties ?? {}) as Record<string, JsonSchema>,
    };
  };
  const compiled = new Map<string, ReturnType<typeof compileOf>>();
  return (operation, at) => {
    let check = compiled.get(operation.id);
    if (!check) compiled.set(operation.id, (check = compileOf(operation)));
    if (check.params) {
      const match = check.pattern.exec(at.path);
      const values: Record<string, unknown> = {};
      check.names.forEach((name, i) => {
        values[name] = typed(decoded(match?.[i + 1] ?? '', false), check.paramSchemas[name], version.schemas);
      });
      if (!check.params(values)) {
        const invalid = fromFrameworkError({ validation: check.params.errors, validationContext: 'path' });
        const first = invalid?.errors?.[0];
        return new VersionaryError({
          code: ErrorCode.NotFound,
          detail: `${version.name} has nothing at ${echo(at.path)}: ${first ? `${first.pointer} ${first.detail}` : 'a parameter is invalid'}.`,
          ...(invalid?.errors ? { errors: invalid.errors } : {}),
        });
      }
    }
    if (at.query === '' && check.query({})) return undefined;
    const query = readQuery(at.query, check.querySchemas, version.schemas);
    if (query === undefined)
      return new VersionaryError({ code: ErrorCode.MalformedRequest, detail: 'The query string cannot be decoded.' });
    if (check.query(query)) return undefined;
    return fromFrameworkError({ validation: check.query.errors, validationContext: 'querystring' });
  };
}

/** The query's members, a repeated name as a list, each typed as its schema says; undefined when undecodable. */
function readQuery(
  text: string,
  schemas: Record<string, JsonSchema>,
  components: ApiVersion['schemas'],
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decoded(at === -1 ? pair : pair.slice(0, at), true);
    const value = decoded(at === -1 ? '' : pair.slice(at + 1), true);
    if (name === undefined || value === undefined) return undefined;
    const schema = schemas[name];
    const listed = Object.hasOwn(out, name) || (schema !== undefined && typesOf(schema, components).has('array'));
    const before = out[name];
    const list = Array.isArray(before) ? before : before === undefined ? [] : [before];
    const items = (schema?.items ?? undefined) as JsonSchema | undefined;
    out[name] = listed ? [...list, typed(value, items, components)] : typed(value, schema, components);
  }
  return out;
}

// Canonical text only, as `integerText`: `0x10`, `1e1` and `05` stay strings and fail validation, as the service reads them.
const numberText = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;

/** A parameter's text as its schema types it: a number, an integer, a boolean, else the text. */
function typed(value: string | undefined, schema: JsonSchema | undefined, components: ApiVersion['schemas']): unknown {
  if (value === undefined || schema === undefined) return value;
  const types = typesOf(schema, components);
  if (types.has('string') || types.size === 0) return value;
  if (types.has('integer') && integerText.test(value)) return Number(value);
  if (types.has('number') && numberText.test(value)) return Number(value);
  if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.has('null') && value === '') return null;
  return value;
}

/** The types a schema allows, through `$ref` and `anyOf`/`oneOf`/`allOf` (Pydantic's `Optional[int]`). */
function typesOf(schema: JsonSchema, components: ApiVersion['schemas'], depth = 0): Set<string> {
  const types = new Set<string>();
  if (depth > 8) return types;
  const ref = refName(schema.$ref);
  const target = ref === undefined ? undefined : components[ref];
  if (target) for (const t of typesOf(target, components, depth + 1)) types.add(t);
  const own = schema.type;
  for (const t of Array.isArray(own) ? own : own === undefined ? [] : [own]) types.add(String(t));
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const branch of (Array.isArray(schema[key]) ? schema[key] : []) as JsonSchema[])
      for (const t of typesOf(branch, components, depth + 1)) types.add(t);
  return types;
}
