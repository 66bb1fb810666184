import { isPlainObject, patternOf, refName } from './schema-walk.ts';
import type { JsonSchema, SchemaMap } from './types.ts';

/**
 * Whether a body of `schema` can have a value at the JSON pointer (RFC 6901): each token a member
 * the schema declares (through `$ref`, `allOf` and any `anyOf`/`oneOf` branch), or allows
 * (`additionalProperties`, `patternProperties`), or an element of an array. Returns the part of
 * the pointer that names nothing (`/itemz`), or undefined when the whole pointer can be there.
 */
export function missingAtPointer(schema: JsonSchema, pointer: string, schemas: SchemaMap): string | undefined {
  if (pointer === '') return undefined;
  const tokens = tokensOf(pointer);
  let current: JsonSchema[] = [schema];
  for (const [i, token] of tokens.entries()) {
    const next = current.flatMap((s) => childrenAt(alternatives(s, schemas), token));
    // A schema that says nothing of its members (`{}`) allows any.
    if (current.some((s) => alternatives(s, schemas).every(unconstrained))) return undefined;
    if (next.length === 0) return `/${tokens.slice(0, i + 1).join('/')}`;
    current = next;
  }
  return undefined;
}

/** The schema and every schema a value of it may also be: its references, `allOf` parts and branches. */
function alternatives(schema: JsonSchema, schemas: SchemaMap): JsonSchema[] {
  const out: JsonSchema[] = [];
  const seen = new Set<JsonSchema>();
  const visit = (s: unknown) => {
    if (!isPlainObject(s) || seen.has(s)) return;
    seen.add(s);
    out.push(s);
    const target = refName(s.$ref);
    if (target !== undefined) visit(schemas[target]);
    for (const key of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach(visit);
  };
  visit(schema);
  return out;
}

function unconstrained(schema: JsonSchema): boolean {
  return [
    'properties',
    'items',
    'prefixItems',
    'additionalProperties',
    'patternProperties',
    'type',
    '$ref',
    'allOf',
    'anyOf',
    'oneOf',
    'enum',
    'const',
  ].every((key) => !(key in schema));
}

/** The schemas a member or element named `token` has under any of `schemas`. */
function childrenAt(schemas: JsonSchema[], token: string): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const s of schemas) {
    const props = isPlainObject(s.properties) ? s.properties : {};
    if (Object.hasOwn(props, token) && isPlainObject(props[token])) out.push(props[token]);
    if (isPlainObject(s.patternProperties))
      for (const [pattern, child] of Object.entries(s.patternProperties))
        if (isPlainObject(child) && patternOf(pattern).test(token)) out.push(child);
    if (isPlainObject(s.additionalProperties)) out.push(s.additionalProperties);
    else if (s.additionalProperties === true) out.push({});
    if (/^(0|[1-9][0-9]*)$/.test(token)) {
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
      const at = prefix[Number(token)];
      if (isPlainObject(at)) out.push(at);
      else if (isPlainObject(s.items)) out.push(s.items);
    }
  }
  return out;
}

/** The value at a JSON pointer (RFC 6901) in a body, or `found: false` where the body has none. */
export function valueAt(body: unknown, pointer: string): { found: boolean; value?: unknown } {
  let value = body;
  for (const token of tokensOf(pointer)) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, token)) return { found: false };
    value = (value as Record<string, unknown>)[token];
  }
  return { found: true, value };
}

function tokensOf(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}
