import type { RefResolver, ResolvedNode } from './ref-resolver.ts';
import { nodeAt, type DocNode } from './json-pointer.ts';
import { isNullOnly, normalizeSchema } from './normalize-schema.ts';

export type SchemaObject = Record<string, unknown>;

/** The base types a schema admits (null handled apart), or `any` when unconstrained. */
export interface TypeInfo {
  /** `null` = any type; `undefined` = cannot tell (unions, refs to elsewhere). */
  types: ReadonlySet<string> | null | undefined;
  nullable: boolean;
}

/** Keywords that never change what a schema accepts. */
export const ANNOTATION_KEYS: ReadonlySet<string> = new Set(
  `description title summary example examples externalDocs xml $comment deprecated $id $schema $anchor
   contentMediaType contentEncoding`.split(/\s+/),
);

/**
 * View any value as a schema record (booleans and junk become `{}` / `{ not: {} }`), in the
 * canonical form of {@link normalizeSchema} so OpenAPI 3.0 and 3.1 spellings read the same.
 */
export function asSchema(value: unknown): SchemaObject {
  if (value === false) return { not: {} };
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return normalizeSchema(value as SchemaObject);
  return {};
}

/**
 * Resolve a schema's refs and peel wrappers that only add annotations or nullability, so a ref
 * restructured that way is the same schema: `allOf: [X]` (with `nullable: true` in 3.0) and the
 * 3.1 `anyOf`/`oneOf: [X, { type: 'null' }]`. A peeled nullable wrapper marks the result
 * `nullable`, with `site` naming the wrapper, where that nullability is written.
 */
export function resolveSchema(resolver: RefResolver, node: DocNode): ResolvedNode {
  let resolved = resolver.resolve(node);
  for (let i = 0; i < 16; i++) {
    const schema = asSchema(resolved.value);
    const inner = wrappedMember(schema);
    if (inner === undefined) return resolved;
    const next = resolver.resolve(nodeAt(resolved, inner.value, inner.key, inner.index));
    let peeled: ResolvedNode =
      resolved.name !== undefined && next.name === undefined ? { ...next, name: resolved.name } : next;
    // A copy: the resolver shares the nodes it returns.
    if (schema.nullable === true || resolved.nullable === true)
      peeled = { ...peeled, nullable: true, site: resolved.site ?? { uri: resolved.uri, pointer: resolved.pointer } };
    resolved = peeled;
  }
  return resolved;
}

/** The one member a wrapper schema stands for, when every other keyword is prose or `nullable`. */
function wrappedMember(schema: SchemaObject): { key: string; index: number; value: unknown } | undefined {
  const key = Array.isArray(schema.allOf)
    ? 'allOf'
    : Array.isArray(schema.anyOf)
      ? 'anyOf'
      : Array.isArray(schema.oneOf)
        ? 'oneOf'
        : undefined;
  if (key === undefined) return undefined;
  const list = schema[key] as unknown[];
  // Counted without allocating: most unions in big APIs have several real members and stop here.
  let index = -1;
  for (let i = 0; i < list.length; i++) {
    if (key !== 'allOf' && isNullOnly(list[i])) continue;
    if (index !== -1) return undefined;
    index = i;
  }
  if (index === -1) return undefined;
  for (const k in schema) {
    if (k !== key && k !== 'nullable' && !ANNOTATION_KEYS.has(k) && !k.startsWith('x-')) return undefined;
  }
  return { key, index, value: list[index] };
}

/** Read the types a schema admits, folding 3.0 `nullable` and 3.1 `null` types together. */
export function typeInfo(schema: SchemaObject, peeled?: { nullable?: boolean }): TypeInfo {
  const raw = schema.type;
  const list =
    typeof raw === 'string'
      ? [raw]
      : Array.isArray(raw)
        ? raw.filter((t): t is string => typeof t === 'string')
        : undefined;
  let nullable = schema.nullable === true || peeled?.nullable === true;
  if (list !== undefined) {
    if (list.includes('null')) nullable = true;
    return { types: new Set(list.filter((t) => t !== 'null')), nullable };
  }
  if (schema.properties !== undefined || isObjectLike(schema.additionalProperties))
    return { types: new Set(['object']), nullable };
  if (schema.items !== undefined || schema.prefixItems !== undefined) return { types: new Set(['array']), nullable };
  const opaque = ['$ref', 'oneOf', 'anyOf', 'allOf', 'enum', 'const', 'not', 'if'].some((k) => schema[k] !== undefined);
  return { types: opaque ? undefined : null, nullable };
}

/** Whether every value of type set `inner` is also in `outer` (integer sits inside number). */
export function isTypeSubset(inner: ReadonlySet<string> | null, outer: ReadonlySet<string> | null): boolean {
  if (outer === null) return true;
  if (inner === null) return false;
  for (const t of inner) {
    if (!outer.has(t) && !(t === 'integer' && outer.has('number'))) return false;
  }
  return true;
}

export function formatTypes(types: ReadonlySet<string> | null | undefined): string {
  if (types === null || types === undefined) return 'any';
  return types.size === 0 ? 'none' : [...types].join(' | ');
}

export function propertiesOf(schema: SchemaObject): Record<string, unknown> {
  return isObjectLike(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
}

export function requiredOf(schema: SchemaObject): Set<string> {
  return new Set(
    Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
  );
}

/** The node of a member of an object node, or undefined when absent. */
export function child(node: DocNode, key: string): DocNode | undefined {
  if (!isObjectLike(node.value) || node.value[key] === undefined) return undefined;
  return nodeAt(node, node.value[key], key);
}

/** The members of an object node, each as its own node; none when it is absent or not an object. */
export function nodeEntries(node: DocNode | undefined): Array<[string, DocNode]> {
  if (node === undefined || !isObjectLike(node.value)) return [];
  return Object.entries(node.value).map(([key, value]) => [key, nodeAt(node, value, key)]);
}

export function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
