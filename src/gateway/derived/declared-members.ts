import type { JsonSchema, SchemaMap } from '../../core/versions/index.ts';
import { fits, isPlainObject, patternOf, refName, schemaList, taggedBranch } from '../../core/versions/schema-walk.ts';

/** A member of `parent` that no schema applying to it declares, at `pointer` (a JSON pointer into the body). */
type OnUndeclared = (at: { parent: Record<string, unknown>; key: string; pointer: string }) => void;

/**
 * The walk that finds the members of a body that a version's schemas do not declare: at each
 * object, the applying schemas (`$ref`, `allOf`, the `anyOf`/`oneOf` branches it fits) declare
 * what `properties` and `patternProperties` name, and any other when `additionalProperties` is
 * not `false`; an object no schema describes is free-form. Members a schema says nothing about
 * (FastAPI's) are undeclared all the same: an older client never receives one its document does
 * not name. Answers the pointer of a value that fits no branch, else undefined. The walk goes as
 * deep as the body (the forwarder bounds that first).
 */
export function createMemberWalk(
  schemas: SchemaMap,
): (name: string, value: unknown, onUndeclared: OnUndeclared) => string | undefined {
  const shapes = createShapes(schemas);
  const roots = new Map<string, JsonSchema[]>();
  // The current walk's report and the member names down to the value walked (a pointer is only
  // built for what is reported): set by each call below, a walk being synchronous, never nested.
  let on: OnUndeclared = () => undefined;
  const path: string[] = [];
  const pointer = () => path.map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

  const walk = (value: unknown, views: readonly JsonSchema[]): string | undefined => {
    if (value === null || typeof value !== 'object' || views.length === 0) return undefined;
    const shape = shapes.of(views, value);
    if (!shape) return pointer() || '/';
    if (Array.isArray(value)) {
      if (shape.arrays.length === 0) return undefined;
      for (let i = 0; i < value.length; i++) {
        path.push(String(i));
        const misfit = walk(value[i], shapes.element(shape, i));
        path.pop();
        if (misfit !== undefined) return misfit;
      }
      return undefined;
    }
    if (shape.objects.length === 0) return undefined;
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const member = shapes.member(shape, key);
      path.push(key);
      if (!member) on({ parent: object, key, pointer: pointer() });
      const misfit = member ? walk(object[key], member) : undefined;
      path.pop();
      if (misfit !== undefined) return misfit;
    }
    return undefined;
  };
  return (name, value, report) => {
    on = report;
    path.length = 0;
    let views = roots.get(name);
    if (!views) roots.set(name, (views = [{ $ref: `#/components/schemas/${name}` }]));
    return walk(value, views);
  };
}

/** The schemas that apply to a value, and what they say of its members and elements. */
interface Shape {
  /** Those that say anything of an object's members. */
  objects: JsonSchema[];
  /** Those that say anything of an array's elements. */
  arrays: JsonSchema[];
  /** By member name, the schemas of a declared member (undefined: not declared); filled as met. */
  members: Map<string, JsonSchema[] | undefined>;
  /** The schemas of every element, when no schema lists elements one by one. */
  rest: JsonSchema[] | undefined;
}

/** Shapes compiled once per list of views: a member's schemas are one list, met again by the same object. */
function createShapes(schemas: SchemaMap) {
  const patterns = new Map<string, RegExp>();
  const compiled = (source: string): RegExp => {
    let pattern = patterns.get(source);
    if (!pattern) patterns.set(source, (pattern = patternOf(source)));
    return pattern;
  };
  // Views whose applying schemas do not depend on the value (no anyOf/oneOf on the way).
  const byViews = new WeakMap<readonly JsonSchema[], Shape>();
  // Shapes reached through a branch, by the applying schemas' ids.
  const byIds = new Map<string, Shape>();
  const ids = new WeakMap<JsonSchema, number>();
  let next = 0;
  const idOf = (schema: JsonSchema) => {
    let id = ids.get(schema);
    if (id === undefined) ids.set(schema, (id = next++));
    return id;
  };
  const shapeOf = (applied: JsonSchema[]): Shape => {
    const objects = applied.filter(
      (s) => s.properties !== undefined || s.patternProperties !== undefined || s.additionalProperties !== undefined,
    );
    const arrays = applied.filter((s) => s.items !== undefined || s.prefixItems !== undefined);
    const listed = arrays.some((s) => Array.isArray(s.prefixItems) || Array.isArray(s.items));
    return { objects, arrays, members: new Map(), rest: listed ? undefined : elementSchemas(arrays, 0) };
  };
  return {
    of(views: readonly JsonSchema[], value: unknown): Shape | undefined {
      const known = byViews.get(views);
      if (known) return known;
      const found = applyingSchemas(schemas, views, value);
      if (!found) return undefined;
      if (!found.branched) {
        const shape = shapeOf(found.applied);
        byViews.set(views, shape);
        return shape;
      }
      const key = found.applied.map(idOf).join(' ');
      let shape = byIds.get(key);
      if (!shape) {
        shape = shapeOf(found.applied);
        if (byIds.size < 4096) byIds.set(key, shape);
      }
      return shape;
    },
    element: (shape: Shape, i: number): JsonSchema[] => shape.rest ?? elementSchemas(shape.arrays, i),
    member(shape: Shape, key: string): JsonSchema[] | undefined {
      if (shape.members.has(key)) return shape.members.get(key);
      const child: JsonSchema[] = [];
      let declared = false;
      for (const s of shape.objects) {
        let listed = false;
        if (isPlainObject(s.properties) && Object.hasOwn(s.properties, key)) {
          listed = true;
          child.push(s.properties[key] as JsonSchema);
        }
        if (isPlainObject(s.patternProperties))
          for (const [source, sub] of Object.entries(s.patternProperties))
            if (compiled(source).test(key)) {
              listed = true;
              child.push(sub as JsonSchema);
            }
        if (!listed && s.additionalProperties !== undefined && s.additionalProperties !== false) {
          listed = true;
          child.push(s.additionalProperties as JsonSchema);
        }
        declared ||= listed;
      }
      const member = declared ? child.filter(isPlainObject) : undefined;
      // Names of a map's members are the data's own: only so many are kept.
      if (shape.members.size < 1024) shape.members.set(key, member);
      return member;
    },
  };
}

/**
 * Every schema that applies to `value` from `views`: each one, what its `$ref` names, its `allOf`
 * parts, and the `anyOf`/`oneOf` branches the value is (by the discriminator's tag, else each
 * branch it fits by kind and required members). Undefined when the value fits no branch of one.
 */
function applyingSchemas(
  schemas: SchemaMap,
  views: readonly JsonSchema[],
  value: unknown,
): { applied: JsonSchema[]; branched: boolean } | undefined {
  const applied: JsonSchema[] = [];
  const seen = new Set<JsonSchema>();
  let branched = false;
  const add = (schema: unknown): boolean => {
    if (!isPlainObject(schema) || seen.has(schema)) return true;
    seen.add(schema);
    applied.push(schema);
    const target = refName(schema.$ref);
    if (target !== undefined && !add(schemas[target])) return false;
    for (const part of schemaList(schema.allOf)) if (!add(part)) return false;
    if (schema.anyOf === undefined && schema.oneOf === undefined) return true;
    branched = true;
    const chosen = chooseBranches(schemas, schema, value);
    return chosen.length > 0 && chosen.every(add);
  };
  return views.every(add) ? { applied, branched } : undefined;
}

function chooseBranches(schemas: SchemaMap, schema: JsonSchema, value: unknown): JsonSchema[] {
  const branches = [...schemaList(schema.anyOf), ...schemaList(schema.oneOf)];
  if (branches.length === 0) return [{}];
  const tagged = taggedBranch(schema, branches, value);
  return tagged ? [tagged] : branches.filter((b) => fits(b, value, { schemas, depth: 0 }));
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
