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

interface CompileTransformOptions {
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
  const active = (name: string) => [...reachableSchemas({ schemas: options.schemas, roots: [name] })].some(ownOf);

  const none: ReadonlySet<string> = new Set();
  const cuts: string[] = [];
  // `here`: the names the value being walked is already under, by `$ref`, `allOf`, `anyOf` or
  // `oneOf` (not by a member or an element). A schema that is, at the same value, one of its own
  // parts (`anyOf: [{$ref: self}]`) would walk that value forever: its own walk covers it.
  const named = (name: string, here: ReadonlySet<string>): Transform => {
    if (memo.has(name)) return memo.get(name) ?? null;
    if (here.has(name)) {
      cuts.push(name);
      return null;
    }
    if (inProgress.has(name)) return (value) => (memo.get(name) ?? identity)(value);
    if (!active(name)) {
      memo.set(name, null);
      return null;
    }
    inProgress.add(name);
    const mark = cuts.length;
    const schema = options.schemas[name];
    const inner = schema ? node(schema, new Set([...here, name])) : null;
    const result = chain(inner, ownOf(name));
    inProgress.delete(name);
    // One that left the walk to a schema it was compiled under is not for reuse elsewhere.
    if (!cuts.splice(mark).some((cut) => here.has(cut))) memo.set(name, result);
    return result;
  };

  const node = (schema: JsonSchema, here: ReadonlySet<string>): Transform => {
    const target = refName(schema.$ref);
    const same = (child: JsonSchema) => node(child, here);
    const below = (child: JsonSchema) => node(child, none);
    // Beside a `$ref`, OpenAPI 3.1 (JSON Schema 2020-12) lets the schema say more: both apply.
    const parts = [
      target === undefined ? null : named(target, here),
      objectTransform(schema, below),
      arrayTransform(schema, below),
      ...schemaList(schema.allOf).map(same),
      branchTransform(schema, same, options.schemas),
    ];
    return parts.reduce<Transform>((out, part) => chain(out, part), null);
  };

  return (name) => named(name, none);
}

/** The schemas of a list (`allOf`), leaving out booleans and anything that is not a schema. */
export function schemaList(list: unknown): JsonSchema[] {
  return Array.isArray(list) ? list.filter(isPlainObject) : [];
}

type Node = (schema: JsonSchema) => Transform;

/**
 * An object's members: each named one by its `properties` schema, each other by every
 * `patternProperties` schema its name matches, and the rest by `additionalProperties`.
 */
function objectTransform(schema: JsonSchema, node: Node): Transform {
  // Each member schema's transform, by its name, where it has one.
  const compiled = (members: unknown) =>
    Object.entries(members ?? {}).flatMap(([key, child]: [string, unknown]) => {
      const t = isPlainObject(child) ? node(child) : null;
      return t ? [[key, t] as const] : [];
    });
  const entries = compiled(schema.properties);
  const patterns = compiled(schema.patternProperties).map(([pattern, t]) => [patternOf(pattern), t] as const);
  const additional = isPlainObject(schema.additionalProperties) ? node(schema.additionalProperties) : null;
  if (entries.length === 0 && patterns.length === 0 && !additional) return null;
  if (patterns.length === 0 && !additional)
    return (value) => {
      if (!isPlainObject(value)) return value;
      const copy: Record<string, unknown> = { ...value };
      for (const [key, t] of entries) if (Object.hasOwn(copy, key)) copy[key] = t(copy[key]);
      return copy;
    };
  const named = new Map(entries);
  // Every name the schema lists, transform or not: those are not additional.
  const listed = new Set(Object.keys(isPlainObject(schema.properties) ? schema.properties : {}));
  const allPatterns = Object.keys(isPlainObject(schema.patternProperties) ? schema.patternProperties : {}).map(
    patternOf,
  );
  return (value) => {
    if (!isPlainObject(value)) return value;
    const copy: Record<string, unknown> = { ...value };
    for (const key of Object.keys(copy)) {
      let member = copy[key];
      const own = named.get(key);
      if (own) member = own(member);
      for (const [pattern, t] of patterns) if (pattern.test(key)) member = t(member);
      if (additional && !listed.has(key) && !allPatterns.some((p) => p.test(key))) member = additional(member);
      copy[key] = member;
    }
    return copy;
  };
}

/** An array's elements: the first ones by `prefixItems` (or a list of `items`), the rest by `items` (or `additionalItems`). */
function arrayTransform(schema: JsonSchema, node: Node): Transform {
  const tuple = Array.isArray(schema.items);
  const prefix = (
    Array.isArray(schema.prefixItems) ? schema.prefixItems : tuple ? (schema.items as unknown[]) : []
  ).map((child) => (isPlainObject(child) ? node(child) : null));
  const restSchema =
    tuple || Array.isArray(schema.prefixItems)
      ? (schema.additionalItems ?? (tuple ? undefined : schema.items))
      : schema.items;
  const rest = isPlainObject(restSchema) ? node(restSchema) : null;
  if (!rest && prefix.every((t) => t === null)) return null;
  return (value) => {
    if (!Array.isArray(value)) return value;
    return value.map((element, i) => {
      const t = i < prefix.length ? prefix[i] : rest;
      return t ? t(element) : element;
    });
  };
}

/**
 * `anyOf` and `oneOf`: a value is translated as the branch it is. A nullable (`anyOf: [{$ref},
 * {type: 'null'}]`, Pydantic's `Optional`) has one branch a `null` never fits; where several
 * branches could, the discriminator chooses, else the first whose kind and required members fit.
 */
function branchTransform(schema: JsonSchema, node: Node, schemas: SchemaMap): Transform {
  const branches = [...schemaList(schema.anyOf), ...schemaList(schema.oneOf)];
  const compiled = branches.map((branch) => ({ branch, t: node(branch) }));
  if (compiled.every((b) => b.t === null)) return null;
  return (value) => {
    const tagged = taggedBranch(schema, branches, value);
    const chosen =
      (tagged && compiled.find((b) => b.branch === tagged)) ??
      compiled.find((b) => fits(b.branch, value, { schemas, depth: 0 }));
    return chosen?.t ? chosen.t(value) : value;
  };
}

/** The branch of `branches` that the discriminator's tag in `value` names (by `mapping`, else as a schema name), if any. */
export function taggedBranch(schema: JsonSchema, branches: JsonSchema[], value: unknown): JsonSchema | undefined {
  const discriminator = isPlainObject(schema.discriminator) ? schema.discriminator : undefined;
  const property = typeof discriminator?.propertyName === 'string' ? discriminator.propertyName : undefined;
  const tag = property !== undefined && isPlainObject(value) ? value[property] : undefined;
  if (typeof tag !== 'string') return undefined;
  const mapping = (isPlainObject(discriminator?.mapping) ? discriminator.mapping : {}) as Record<string, unknown>;
  const target = refName(mapping[tag]) ?? tag;
  return branches.find((b) => refName(b.$ref) === target);
}

/** Whether `value` could be of `schema`, by its kind and the members it requires: enough to choose a branch. */
export function fits(schema: JsonSchema, value: unknown, at: { schemas: SchemaMap; depth: number }): boolean {
  // A reference cycle with nothing to tell the branches apart: let the branch be.
  if (at.depth > 32) return true;
  const deeper = { schemas: at.schemas, depth: at.depth + 1 };
  const target = refName(schema.$ref);
  const resolved = target === undefined ? undefined : at.schemas[target];
  if (resolved && !fits(resolved, value, deeper)) return false;
  if (!schemaList(schema.allOf).every((part) => fits(part, value, deeper))) return false;
  const kind = kindOf(value);
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
  if (types) {
    const nullable = schema.nullable === true && kind === 'null';
    if (!nullable && !types.some((t) => t === kind || (t === 'number' && kind === 'integer'))) return false;
  } else if (kind === 'null' && schema.nullable !== true && (schema.properties ?? schema.items) !== undefined)
    return false;
  if (kind === 'object' && Array.isArray(schema.required))
    return schema.required.every((key) => typeof key !== 'string' || Object.hasOwn(value as object, key));
  return true;
}

/** A `patternProperties` name as a regular expression; one JavaScript cannot read matches nothing (Ajv refuses the document). */
export function patternOf(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    return /(?!)/;
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** `first`, then `second`; either may be null (nothing to do). */
export function chain(first: Transform, second: Transform): Transform {
  if (!first) return second;
  if (!second) return first;
  return (value) => second(first(value));
}

function identity(value: unknown): unknown {
  return value;
}

/**
 * The schema names reachable from `roots` through `$ref`, the roots included, by paths that pass
 * through none of `stopAt` (the schemas a migration rewrites, whose contents the walk leaves alone).
 */
export function reachableSchemas(options: {
  schemas: SchemaMap;
  roots: readonly string[];
  stopAt?: ReadonlySet<string>;
}): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name) || options.stopAt?.has(name)) return;
    seen.add(name);
    refsIn(options.schemas[name]).forEach(visit);
  };
  options.roots.forEach(visit);
  return seen;
}

/** The component names of every `$ref` in a value, at any depth. */
export function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const name = key === '$ref' ? refName(child) : undefined;
    return name !== undefined ? [name] : refsIn(child);
  });
}

/** A schema's `required` list, empty when it has none. */
export function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
