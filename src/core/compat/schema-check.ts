import { toDocumentSet } from './document-set.ts';
import { joinPointer } from './json-pointer.ts';
import { createRefResolver, type RefResolver } from './ref-resolver.ts';
import {
  asSchema,
  isObjectLike,
  propertiesOf,
  requiredOf,
  resolveSchema,
  typeInfo,
  type SchemaObject,
} from './schema-model.ts';

/** The spec's three reasons a schema check fails. */
export const SchemaRule = {
  FieldMissing: 'field-missing',
  FieldTypeChanged: 'field-type-changed',
  FieldBecameRequired: 'field-became-required',
} as const;

/** One of the {@link SchemaRule} ids. */
export type SchemaRule = (typeof SchemaRule)[keyof typeof SchemaRule];

/** A reason the new schema is not compatible with the old one. */
export interface SchemaViolation {
  rule: SchemaRule;
  /** Dotted field path; `[]` marks array items (`tags[].name`). */
  field: string;
  /** JSON pointer of the field in the old schema. */
  pointer: string;
  oldType?: string;
  newType?: string;
  message: string;
}

/** Options for {@link checkSchemaCompatibility}. */
export interface SchemaCheckOptions {
  /** Document that `#/...` refs in the old schema point into (defaults to the schema itself). */
  oldRoot?: unknown;
  /** Document that `#/...` refs in the new schema point into (defaults to the schema itself). */
  newRoot?: unknown;
}

/**
 * The spec's schema check, exactly: fails when a field of the old schema is missing from the new
 * one, when a field in both changed type, or when a field in both is required in the new schema
 * but was not in the old. Nested objects, array items, allOf members and `$ref`s are followed;
 * cycles terminate.
 */
export function checkSchemaCompatibility(
  oldSchema: unknown,
  newSchema: unknown,
  options: SchemaCheckOptions = {},
): SchemaViolation[] {
  const oldSet = toDocumentSet(options.oldRoot ?? oldSchema, 'memory:///old.json');
  const newSet = toDocumentSet(options.newRoot ?? newSchema, 'memory:///new.json');
  const walk: Walk = { old: createRefResolver(oldSet), new: createRefResolver(newSet), seen: new Set(), out: [] };
  // Pointers in violations are relative to the schemas given, even when roots are passed.
  compare(walk, {
    old: { uri: oldSet.root, pointer: '', value: oldSchema },
    new: { uri: newSet.root, pointer: '', value: newSchema },
    field: '',
  });
  return walk.out;
}

interface Walk {
  old: RefResolver;
  new: RefResolver;
  seen: Set<string>;
  out: SchemaViolation[];
}

interface Node {
  uri: string;
  pointer: string;
  value: unknown;
}

function compare(walk: Walk, pair: { old: Node; new: Node; field: string }): void {
  const o = resolveSchema(walk.old, pair.old);
  const n = resolveSchema(walk.new, pair.new);
  const key = `${o.key}|${n.key}`;
  if (walk.seen.has(key)) return;
  walk.seen.add(key);
  const oldFields = fieldsOf(walk.old, o);
  const newFields = fieldsOf(walk.new, n);
  for (const [name, oldField] of oldFields.properties) {
    const field = pair.field === '' ? name : `${pair.field}.${name}`;
    const newField = newFields.properties.get(name);
    if (newField === undefined) {
      walk.out.push({
        rule: SchemaRule.FieldMissing,
        field,
        pointer: oldField.pointer,
        message: `Field \`${field}\` of the old schema is missing from the new one.`,
      });
      continue;
    }
    if (newFields.required.has(name) && !oldFields.required.has(name)) {
      walk.out.push({
        rule: SchemaRule.FieldBecameRequired,
        field,
        pointer: oldField.pointer,
        message: `Field \`${field}\` is required in the new schema but was not in the old one.`,
      });
    }
    const oldType = typeLabel(asSchema(walk.old.resolve(oldField).value));
    const newType = typeLabel(asSchema(walk.new.resolve(newField).value));
    if (oldType !== undefined && newType !== undefined && oldType !== newType) {
      walk.out.push({
        rule: SchemaRule.FieldTypeChanged,
        field,
        pointer: oldField.pointer,
        oldType,
        newType,
        message: `Field \`${field}\` changed type from ${oldType} to ${newType}.`,
      });
      continue;
    }
    compare(walk, { old: oldField, new: newField, field });
  }
  const oldItems = asSchema(o.value).items;
  const newItems = asSchema(n.value).items;
  if (isObjectLike(oldItems) && isObjectLike(newItems)) {
    compare(walk, {
      old: { uri: o.uri, pointer: joinPointer(o.pointer, 'items'), value: oldItems },
      new: { uri: n.uri, pointer: joinPointer(n.pointer, 'items'), value: newItems },
      field: `${pair.field}[]`,
    });
  }
}

/** Own properties plus those brought in by allOf members: restructuring is not a change. */
function fieldsOf(
  resolver: RefResolver,
  node: Node,
  depth = 0,
): { properties: Map<string, Node>; required: Set<string> } {
  const schema: SchemaObject = asSchema(node.value);
  const properties = new Map<string, Node>();
  const required = requiredOf(schema);
  for (const [name, value] of Object.entries(propertiesOf(schema))) {
    properties.set(name, { uri: node.uri, pointer: joinPointer(node.pointer, 'properties', name), value });
  }
  if (Array.isArray(schema.allOf) && depth < 32) {
    schema.allOf.forEach((member, i) => {
      const resolved = resolveSchema(resolver, {
        uri: node.uri,
        pointer: joinPointer(node.pointer, 'allOf', i),
        value: member,
      });
      const inner = fieldsOf(resolver, resolved, depth + 1);
      for (const [name, field] of inner.properties) if (!properties.has(name)) properties.set(name, field);
      for (const name of inner.required) required.add(name);
    });
  }
  return { properties, required };
}

function typeLabel(schema: SchemaObject): string | undefined {
  const info = typeInfo(schema);
  if (info.types === undefined) return undefined;
  const base = info.types === null ? ['any'] : [...info.types].sort();
  return (info.nullable ? [...base, 'null'] : base).join(' | ');
}
