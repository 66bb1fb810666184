// OpenAPI 3.0 and 3.1 spell several constraints differently. Every keyword comparer reads
// schemas through this one canonical view, so a 3.0 description and its faithful 3.1 upgrade
// compare as equal. Only scalar keywords are rewritten: sub-schemas keep their keys and list
// positions, so the JSON pointers built from the view still point into the real document.

type SchemaObject = Record<string, unknown>;

const cache = new WeakMap<object, SchemaObject>();

/** Keywords that only describe a value; a schema made of these and a null type accepts only null. */
const PROSE = new Set(['description', 'title', 'example', 'examples', '$comment', 'deprecated', 'externalDocs']);

/**
 * The canonical view of one schema object (memoised per object):
 *
 * - `nullable: true` (3.0), `null` in a `type` array, and a null-only member of `anyOf`/`oneOf`
 *   (3.1) all become `nullable: true` with `type` free of `null`; `null` leaves a nullable enum;
 * - `exclusiveMinimum: true` beside `minimum` (3.0) becomes the 3.1 number form, and of an
 *   inclusive and an exclusive bound only the one that binds is kept;
 * - `const` becomes a one-value `enum`;
 * - `contentEncoding: base64` (3.1) is `format: byte`, and a binary `contentMediaType` on a
 *   string without an encoding is `format: binary`, as 3.0 wrote them.
 */
export function normalizeSchema(schema: SchemaObject): SchemaObject {
  // The comparers read the old and the new schema of a pair in turn, a dozen times each: the last
  // two answers are kept beside the WeakMap, whose lookups cost more than the keywords they read.
  if (schema === recent[0]) return recent[1];
  if (schema === recent[2]) return recent[3];
  let view = cache.get(schema);
  if (view === undefined) {
    view = needsNormalizing(schema) ? rewrite(schema) : schema;
    cache.set(schema, view);
  }
  recent[2] = recent[0];
  recent[3] = recent[1];
  recent[0] = schema;
  recent[1] = view;
  return view;
}

/** The last two schemas asked for and their views: [schema, view, older schema, its view]. */
const recent: [SchemaObject, SchemaObject, SchemaObject, SchemaObject] = [{}, {}, {}, {}];

/**
 * Whether a schema admits only `null` (`{ type: 'null' }`, `{ enum: [null] }`, `{ const: null }`),
 * the form 3.1 uses as a union member to make a value nullable.
 */
export function isNullOnly(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const s = value as SchemaObject;
  let only: string | undefined;
  for (const k in s) {
    if (PROSE.has(k) || k.startsWith('x-')) continue;
    if (only !== undefined) return false;
    only = k;
  }
  if (only === 'type')
    return s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null');
  if (only === 'const') return s.const === null;
  return only === 'enum' && Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null;
}

function needsNormalizing(s: SchemaObject): boolean {
  return (
    s.nullable !== undefined ||
    Array.isArray(s.type) ||
    typeof s.exclusiveMinimum === 'boolean' ||
    typeof s.exclusiveMaximum === 'boolean' ||
    (typeof s.exclusiveMinimum === 'number' && s.minimum !== undefined) ||
    (typeof s.exclusiveMaximum === 'number' && s.maximum !== undefined) ||
    s.const !== undefined ||
    s.contentEncoding !== undefined ||
    s.contentMediaType !== undefined ||
    (Array.isArray(s.anyOf) && s.anyOf.some(isNullOnly)) ||
    (Array.isArray(s.oneOf) && s.oneOf.some(isNullOnly))
  );
}

function rewrite(schema: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...schema };
  let nullable = schema.nullable === true;
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    if (types.length !== schema.type.length) nullable = true;
    out.type = types.length === 1 ? types[0] : types;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key]) && schema[key].some(isNullOnly)) nullable = true;
  }
  if (out.const !== undefined) {
    if (out.enum === undefined) out.enum = [out.const];
    delete out.const;
  }
  if (nullable && Array.isArray(out.enum) && out.enum.includes(null)) out.enum = out.enum.filter((v) => v !== null);
  if (nullable) out.nullable = true;
  else delete out.nullable;
  bound(out, { inclusive: 'minimum', exclusive: 'exclusiveMinimum', sign: 1 });
  bound(out, { inclusive: 'maximum', exclusive: 'exclusiveMaximum', sign: -1 });
  if (out.format === undefined && (out.type === 'string' || out.type === undefined)) {
    if (out.contentEncoding === 'base64') out.format = 'byte';
    else if (out.contentEncoding === undefined && isBinaryMedia(out.contentMediaType)) out.format = 'binary';
  }
  return out;
}

/** A text media type (`text/*`, JSON, XML) in a string is text, which 3.0 wrote as a plain string. */
function isBinaryMedia(media: unknown): boolean {
  return typeof media === 'string' && !/^text\/|[/+](json|xml)\b/i.test(media);
}

/** `sign` is 1 for lower bounds (the larger binds) and -1 for upper bounds. */
function bound(out: SchemaObject, keys: { inclusive: string; exclusive: string; sign: number }): void {
  const { inclusive, exclusive, sign } = keys;
  const flag = out[exclusive];
  if (typeof flag === 'boolean') {
    // 3.0: the flag qualifies the inclusive keyword.
    if (flag && typeof out[inclusive] === 'number') {
      out[exclusive] = out[inclusive];
      delete out[inclusive];
    } else delete out[exclusive];
    return;
  }
  const inc = out[inclusive];
  if (typeof flag === 'number' && typeof inc === 'number') {
    // 3.1 allows both: the exclusive one binds when it is at least as strict.
    if ((flag - inc) * sign >= 0) delete out[inclusive];
    else delete out[exclusive];
  }
}
