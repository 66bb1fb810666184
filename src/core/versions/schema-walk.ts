import type { JsonSchema, SchemaMap } from './types.ts';

/** A value transform compiled against a schema; `null` means "leave the value as it is". */
export type Transform = ((value: unknown) => unknown) | null;

const refPrefix = '#/components/schemas/';

/** Name of the component a `$ref` points at, or undefined for any other reference. */
export function refName(ref: unknown): string | undefined {
  return typeof ref === 'string' && ref.startsWith(refPrefix) ? ref.slice(refPrefix.length) : undefined;
}

/**
 * Reference a component schema by name.
 *
 * @example
 * ```ts
 * ref('User') // { $ref: '#/components/schemas/User' }
 * ```
 */
export function ref<const Name extends string>(name: Name): { $ref: `#/components/schemas/${Name}` } {
  return { $ref: `${refPrefix}${name}` as `#/components/schemas/${Name}` };
}

export interface CompileTransformOptions {
  schemas: SchemaMap;
  /** The transform owned by a named schema, applied after its children are transformed. */
  own: (name: string) => Transform;
}

/**
 * Compile, once, a transform that walks a value along a named schema and applies each named
 * schema's own transform bottom-up. Subtrees with nothing to do compile to `null`, so the hot path
 * only touches what changes. Cycles are safe: a schema under compilation resolves lazily.
 */
export function compileTransform(options: CompileTransformOptions): (name: string) => Transform {
  const memo = new Map<string, Transform>();
  const inProgress = new Set<string>();
  const owns = new Map<string, Transform>();
  const ownOf = (name: string): Transform => {
    if (!owns.has(name)) owns.set(name, options.own(name));
    return owns.get(name) ?? null;
  };
  // Whether any schema reachable from `name` (itself included) owns a transform. Decided before
  // compiling, so a cycle with nothing to do compiles to null instead of a lazy copying walk.
  const active = (name: string): boolean => {
    const seen = new Set([name]);
    const queue = [name];
    while (queue.length > 0) {
      const current = queue.pop()!;
      if (ownOf(current)) return true;
      for (const next of walkedRefs(options.schemas[current])) {
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    return false;
  };

  const named = (name: string): Transform => {
    if (memo.has(name)) return memo.get(name) ?? null;
    if (inProgress.has(name)) return (value) => (memo.get(name) ?? identity)(value);
    if (!active(name)) {
      memo.set(name, null);
      return null;
    }
    inProgress.add(name);
    const schema = options.schemas[name];
    const inner = schema ? node(schema) : null;
    const own = ownOf(name);
    const result = chain(inner, own);
    inProgress.delete(name);
    memo.set(name, result);
    return result;
  };

  const node = (schema: JsonSchema): Transform => {
    const target = refName(schema.$ref);
    if (target !== undefined) return named(target);
    const props = schema.properties as Record<string, JsonSchema> | undefined;
    if (props) return objectTransform(props, node);
    const items = schema.items as JsonSchema | undefined;
    if (items && typeof items === 'object') {
      const each = node(items);
      return each && ((value) => (Array.isArray(value) ? value.map(each) : value));
    }
    return null;
  };

  return named;
}

/** The component names the walk below follows from a schema: `$ref`, `properties` and `items`. */
function walkedRefs(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const target = refName(schema.$ref);
  if (target !== undefined) return [target];
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props) return Object.values(props).flatMap((child) => walkedRefs(child));
  const items = schema.items as JsonSchema | undefined;
  return items && typeof items === 'object' ? walkedRefs(items) : [];
}

function objectTransform(props: Record<string, JsonSchema>, node: (s: JsonSchema) => Transform): Transform {
  const entries: Array<[string, (v: unknown) => unknown]> = [];
  for (const [key, schema] of Object.entries(props)) {
    const t = node(schema);
    if (t) entries.push([key, t]);
  }
  if (entries.length === 0) return null;
  return (value) => {
    if (!isPlainObject(value)) return value;
    const copy: Record<string, unknown> = { ...value };
    for (const [key, t] of entries) if (key in copy) copy[key] = t(copy[key]);
    return copy;
  };
}

function chain(first: Transform, second: Transform): Transform {
  if (!first) return second;
  if (!second) return first;
  return (value) => second(first(value));
}

function identity(value: unknown): unknown {
  return value;
}

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
