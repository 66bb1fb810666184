import { Ajv, type ErrorObject } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { parseIsoInstant } from '../time/index.ts';

/**
 * How a key the schema does not take (`additionalProperties: false`) is told: where it sits, the key,
 * the keys its object takes, and the object's `title`.
 */
type UnknownKeyText = (options: { where: string; key: string; known: string[]; title?: string }) => string;

/** A compiled config schema: every problem of a value as a sentence naming its path (empty when valid). */
export interface SchemaValidator<T extends TSchema> {
  schema: T;
  /** The problems of `value`, whose paths start with `where` (`lifecycle`, `gateway`, or `''` for the file's top). */
  errors(value: unknown, where: string): string[];
  /** Narrows `value` to the schema's type when it has no problem. */
  check(value: unknown): value is Static<T>;
}

// One Ajv for every config schema: `allErrors` reports every problem of a config at once; the
// `errorText` keyword is the sentence a schema gives for a value it refuses (`must be 410 or 404`).
const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, allowUnionTypes: true });
ajv.addKeyword({ keyword: 'errorText', schemaType: 'string' });
// Options given in code may hold functions, which JSON Schema has no type for.
ajv.addKeyword({
  keyword: 'isFunction',
  schemaType: 'boolean',
  validate: (on: boolean, data: unknown) => !on || typeof data === 'function',
});
ajv.addFormat('instant', { type: 'string', validate: (text: string) => parseIsoInstant(text) !== undefined });

/** A TypeBox config schema compiled once: every problem at once, each with its path. */
export function createSchemaValidator<T extends TSchema>(
  schema: T,
  options: { unknownKey: UnknownKeyText },
): SchemaValidator<T> {
  const validate = ajv.compile(schema);
  return {
    schema,
    check: (value): value is Static<T> => validate(value),
    errors(value, where) {
      if (validate(value)) return [];
      return describeErrors({ errors: validate.errors ?? [], where, unknownKey: options.unknownKey });
    },
  };
}

function describeErrors(options: { errors: ErrorObject[]; where: string; unknownKey: UnknownKeyText }): string[] {
  // A union (an instant, an enum of literals) is told once, by its own `errorText`, not branch by
  // branch; but an object that only one branch can take is told that branch's errors, which name its keys.
  const unions = options.errors.filter((e) => e.keyword === 'anyOf');
  const kept = unions.map(objectBranch);
  const silenced = (error: ErrorObject) =>
    unions.some((union, i) => {
      if (error === union) return kept[i] !== undefined;
      const inside = error.schemaPath.startsWith(`${union.schemaPath}/`);
      return inside && !error.schemaPath.startsWith(kept[i] ?? '\u0000');
    });
  // A key's own error (`propertyNames`) is told by the object's error, which names the key.
  const told = options.errors.filter((error) => !silenced(error) && error.propertyName === undefined);
  const sentences = told.map((error) =>
    describe({ error, path: joinPath(options.where, error.instancePath), unknownKey: options.unknownKey }),
  );
  return [...new Set(sentences)];
}

function objectBranch(union: ErrorObject): string | undefined {
  if (typeof union.data !== 'object' || union.data === null || Array.isArray(union.data)) return undefined;
  const branches = ((union.parentSchema as { anyOf?: Array<{ type?: unknown }> }).anyOf ?? []).map((b) => b.type);
  const objects = branches.flatMap((type, i) => (type === 'object' ? [i] : []));
  return objects.length === 1 ? `${union.schemaPath}/${objects[0]}/` : undefined;
}

function describe(options: { error: ErrorObject; path: string; unknownKey: UnknownKeyText }): string {
  const { error, path } = options;
  const parent = (error.parentSchema ?? {}) as { errorText?: string; title?: string; properties?: object };
  if (error.keyword === 'additionalProperties') {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    return options.unknownKey({
      where: path,
      key,
      known: Object.keys(parent.properties ?? {}),
      ...(parent.title ? { title: parent.title } : {}),
    });
  }
  if (error.keyword === 'propertyNames') {
    const names = (parent as { propertyNames?: { errorText?: string } }).propertyNames;
    const name = (error.params as { propertyName: string }).propertyName;
    return `${path}: ${JSON.stringify(name)} ${names?.errorText ?? 'is not a valid name'}`;
  }
  if (error.keyword === 'required')
    return `${joinKey(path, (error.params as { missingProperty: string }).missingProperty)} is required`;
  const text = parent.errorText ?? fallbackText(error);
  return `${path || 'the value'} ${text}, not ${show(error.data)}`;
}

function fallbackText(error: ErrorObject): string {
  const params = error.params as { type?: string };
  if (error.keyword === 'type' && params.type === 'object') return 'must be an object';
  if (error.keyword === 'type' && params.type === 'array') return 'must be an array';
  return error.message ?? 'is not valid';
}

// `/endpointDeprecations/0/sunsetAt` under `lifecycle` reads `lifecycle.endpointDeprecations[0].sunsetAt`.
function joinPath(where: string, pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^[0-9]+$/.test(segment) ? `${path}[${segment}]` : joinKey(path, segment)), where);
}

function joinKey(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

// NaN and Infinity, which JSON would print as null, are shown as themselves.
function show(value: unknown): string {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
}

/** The members `keys` of `object` that are not `undefined` (under `exactOptionalPropertyTypes`, absent ≠ undefined). */
export function pickDefined<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(
    keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]),
  ) as Partial<Pick<T, K>>;
}
