import type { JsonSchema, SchemaMap } from '../../core/versions/index.ts';
import { fits, isPlainObject, refName } from '../../core/versions/schema-walk.ts';

/** A member of `parent` that no schema applying to it declares, at `pointer` (a JSON pointer into the body). */
type OnUndeclared = (at: { parent: Record<string, unknown>; key: string; pointer: string }) => void;

/**
 * The walk that finds the members a version's document does not declare in a body of one of its
 * component schemas: at each object, the schemas that apply to it (through `$ref`, `allOf`, and
 * the `anyOf`/`oneOf` branches it fits, by the discriminator where there is one) declare the
 * members their `properties` and `patternProperties` name, and any other when one of them has
 * `additionalProperties` other than `false`. An object no applying schema describes (`{type:
 * 'object'}` alone) is free-form: all of it is declared. Where an upstream's schema says nothing
 * about other members (FastAPI's do not), they are undeclared all the same: an older client never
 * receives a member its document does not name, as Pydantic's response models drop them.
 *
 * It answers the pointer of a value that fits no branch of an `anyOf`/`oneOf` (what it declares
 * cannot be told), else undefined. The walk follows the value, so it goes as deep as the body
 * (the forwarder bounds that first).
 */
export function createMemberWalk(
  schemas: SchemaMap,
): (name: string, value: unknown, onUndeclared: OnUndeclared) => string | undefined {
  const patterns = new Map<string, RegExp>();
  const patternOf = (source: string): RegExp => {
    let pattern = patterns.get(source);
    if (!pattern) {
      try {
        pattern = new RegExp(source, 'u');
      } catch {
        pattern = /(?!)/;
      }
      patterns.set(source, pattern);
    }
    return pattern;
  };
  const applying = (views: readonly JsonSchema[], value: unknown) => applyingSchemas(schemas, views, value);

  // The current walk's report (set by each call below: a walk is synchronous, never nested).
  let on: OnUndeclared = () => undefined;
  const walk = (value: unknown, views: readonly JsonSchema[], pointer: string): string | undefined => {
    if (value === null || typeof value !== 'object' || views.length === 0) return undefined;
    const applied = applying(views, value);
    if (!applied) return pointer || '/';
    if (Array.isArray(value)) {
      const holders = applied.filter((s) => s.items !== undefined || s.prefixItems !== undefined);
      if (holders.length === 0) return undefined;
      for (let i = 0; i < value.length; i++) {
        const misfit = walk(value[i], elementSchemas(holders, i), `${pointer}/${i}`);
        if (misfit !== undefined) return misfit;
      }
      return undefined;
    }
    const object = value as Record<string, unknown>;
    const holders = applied.filter(
      (s) => s.properties !== undefined || s.patternProperties !== undefined || s.additionalProperties !== undefined,
    );
    if (holders.length === 0) return undefined;
    for (const key of Object.keys(object)) {
      const child: JsonSchema[] = [];
      let declared = false;
      for (const s of holders) {
        let listed = false;
        if (isPlainObject(s.properties) && Object.hasOwn(s.properties, key)) {
          listed = true;
          child.push(s.properties[key] as JsonSchema);
        }
        if (isPlainObject(s.patternProperties))
          for (const [source, sub] of Object.entries(s.patternProperties))
            if (patternOf(source).test(key)) {
              listed = true;
              child.push(sub as JsonSchema);
            }
        if (!listed && s.additionalProperties !== undefined && s.additionalProperties !== false) {
          listed = true;
          child.push(s.additionalProperties as JsonSchema);
        }
        declared ||= listed;
      }
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (!declared) {
        on({ parent: object, key, pointer: at });
        continue;
      }
      const misfit = walk(object[key], child.filter(isPlainObject), at);
      if (misfit !== undefined) return misfit;
    }
    return undefined;
  };
  return (name, value, report) => {
    on = report;
    return walk(value, [{ $ref: `#/components/schemas/${name}` }], '');
  };
}

/**
 * Every schema that applies to `value` from `views`: each one, what its `$ref` names, its `allOf`
 * parts, and the `anyOf`/`oneOf` branches the value is (by the discriminator's tag, else each
 * branch it fits by kind and required members). Undefined when the value fits no branch of one.
 */
function applyingSchemas(schemas: SchemaMap, views: readonly JsonSchema[], value: unknown): JsonSchema[] | undefined {
  const out: JsonSchema[] = [];
  const seen = new Set<JsonSchema>();
  const add = (schema: unknown): boolean => {
    if (!isPlainObject(schema) || seen.has(schema)) return true;
    seen.add(schema);
    out.push(schema);
    const target = refName(schema.$ref);
    if (target !== undefined && !add(schemas[target])) return false;
    for (const part of schemaList(schema.allOf)) if (!add(part)) return false;
    if (schema.anyOf === undefined && schema.oneOf === undefined) return true;
    const chosen = chooseBranches(schemas, schema, value);
    return chosen.length > 0 && chosen.every(add);
  };
  return views.every(add) ? out : undefined;
}

function chooseBranches(schemas: SchemaMap, schema: JsonSchema, value: unknown): JsonSchema[] {
  const branches = [...schemaList(schema.anyOf), ...schemaList(schema.oneOf)];
  if (branches.length === 0) return [{}];
  const discriminator = isPlainObject(schema.discriminator) ? schema.discriminator : undefined;
  const property = typeof discriminator?.propertyName === 'string' ? discriminator.propertyName : undefined;
  const tag = property !== undefined && isPlainObject(value) ? value[property] : undefined;
  if (typeof tag === 'string') {
    const mapping = (isPlainObject(discriminator?.mapping) ? discriminator.mapping : {}) as Record<string, unknown>;
    const target = refName(mapping[tag]) ?? tag;
    const tagged = branches.find((b) => refName(b.$ref) === target);
    if (tagged) return [tagged];
  }
  return branches.filter((b) => fits(b, value, { schemas, depth: 0 }));
}

/** The schemas an array's element `i` is checked against: `prefixItems` (or a list of `items`), else the rest's. */
function elementSchemas(holders: JsonSchema[], i: number): JsonSchema[] {
  const out: unknown[] = [];
  for (const s of holders) {
    if (Array.isArray(s.prefixItems)) out.push(i < s.prefixItems.length ? s.prefixItems[i] : s.items);
    else if (Array.isArray(s.items)) out.push(i < s.items.length ? s.items[i] : s.additionalItems);
    else out.push(s.items);
  }
  return out.filter(isPlainObject);
}

function schemaList(list: unknown): JsonSchema[] {
  return Array.isArray(list) ? list.filter(isPlainObject) : [];
}
