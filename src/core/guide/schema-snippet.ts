import { nodeAt } from '../compat/json-pointer.ts';
import { createRefResolver, getAtPointer, toDocumentSet, type DocumentSet } from '../compat/index.ts';
import type { Change } from '../compat/index.ts';
import { isSyntheticName } from './behaviour.ts';

/** The keywords that say what a value looks like; constraints and prose are left out. */
const SHAPE_KEYS = ['type', 'nullable', 'required', 'enum', 'const', 'properties', 'items', 'oneOf', 'anyOf', 'allOf'];
const MAX_DEPTH = 4;

/**
 * The compact JSON Schema of a changed value on each side, for the guide's before and after: a
 * type change (`UserList` from a bare array to `{ data, meta }`) shows both shapes, as Stripe's
 * guides do. Undefined when the change is not a type change or either side cannot be found.
 */
export function shapesOf(
  change: Change,
  documents: { base: unknown; revision: unknown },
): { before: Record<string, unknown>; after: Record<string, unknown> } | undefined {
  if (!/-type-(?:changed|widened|narrowed)$/.test(change.id)) return undefined;
  const { pointer, document } = change.location;
  const before = shapeAt(toDocumentSet(documents.base), { pointer, document });
  const after = shapeAt(toDocumentSet(documents.revision), { pointer, document });
  if (before === undefined || after === undefined) return undefined;
  // The location is the new side's; the old document's value there must be the old type.
  return saysType(before, change.oldValue) && saysType(after, change.newValue) ? { before, after } : undefined;
}

function saysType(shape: Record<string, unknown>, types: unknown): boolean {
  const named = Array.isArray(shape.type) ? shape.type : [shape.type];
  return typeof types === 'string' && named.every((t) => typeof t === 'string' && types.includes(t));
}

function shapeAt(
  set: DocumentSet,
  at: { pointer: string; document: string | undefined },
): Record<string, unknown> | undefined {
  const uri = at.document ?? set.root;
  const doc = set.documents.get(uri);
  if (doc === undefined) return undefined;
  const value = getAtPointer(doc, at.pointer);
  if (typeof value !== 'object' || value === null) return undefined;
  const resolver = createRefResolver(set);
  const compact = (node: { uri: string; pointer: string; value: unknown }, depth: number): unknown => {
    if (typeof node.value !== 'object' || node.value === null) return node.value;
    const raw = node.value as Record<string, unknown>;
    if (typeof raw.$ref === 'string') {
      const target = resolver.resolve(node);
      // A named schema stays a reference a reader can look up; a synthetic name is inlined.
      if (depth > 0 && target.name !== undefined && !isSyntheticName(target.name)) return { $ref: raw.$ref };
      if (depth >= MAX_DEPTH) return {};
      return compact(target, depth);
    }
    if (depth >= MAX_DEPTH) return typeof raw.type === 'string' ? { type: raw.type } : {};
    const out: Record<string, unknown> = {};
    const child = (key: string, value: unknown, ...tokens: string[]) =>
      compact(nodeAt(node, value, key, ...tokens), depth + 1);
    for (const key of SHAPE_KEYS) {
      const v = raw[key];
      if (v === undefined) continue;
      if (key === 'properties' && typeof v === 'object' && v !== null)
        out[key] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, child(key, s, name)]));
      else if (key === 'items' && !Array.isArray(v)) out[key] = child(key, v);
      else if (Array.isArray(v) && ['oneOf', 'anyOf', 'allOf'].includes(key))
        out[key] = v.map((s, i) => child(key, s, String(i)));
      else out[key] = v;
    }
    return out;
  };
  const shape = compact({ uri, pointer: at.pointer, value }, 0);
  return typeof shape === 'object' && shape !== null ? (shape as Record<string, unknown>) : undefined;
}

/**
 * Print a snippet as JSON that fits a narrow column: a member that fits on one line stays on one.
 */
export function formatSnippet(value: unknown, indent = ''): string {
  const flat = oneLine(value);
  if (indent.length + flat.length <= 72 || typeof value !== 'object' || value === null) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + formatSnippet(v, inner)).join(',\n')}\n${indent}]`;
  const members = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatSnippet(v, inner)}`);
  return `{\n${members.join(',\n')}\n${indent}}`;
}

function oneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${oneLine(v)}`);
  return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
}
