import { nodeAt, type DocNode } from './json-pointer.ts';
import { isNullOnly } from './normalize-schema.ts';
import type { RefResolver, ResolvedNode } from './ref-resolver.ts';
import { ANNOTATION_KEYS, asSchema, isObjectLike, resolveSchema } from './schema-model.ts';

/** Decides whether two schemas accept the same values, ignoring refs, names, order and prose. */
export interface EquivalenceChecker {
  equivalent(oldNode: DocNode, newNode: DocNode): boolean;
}

const SCHEMA_MAP_KEYS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_KEYS = new Set(
  `items additionalProperties not if then else contains propertyNames unevaluatedProperties
   unevaluatedItems`.split(/\s+/),
);
const SCHEMA_LIST_KEYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const UNORDERED_KEYS = new Set(['required', 'enum', 'type']);

/**
 * Build a checker that compares schemas structurally across two documents. Results are memoised
 * per pair of locations; a pair met again while it is being compared is assumed equal
 * (coinduction), and only answers that hold for the whole comparison are kept.
 */
export function createEquivalenceChecker(resolvers: { old: RefResolver; new: RefResolver }): EquivalenceChecker {
  const known = new Map<string, boolean>();
  const pending = new Set<string>();
  let tentative: string[] = [];

  function compareNodes(a: DocNode, b: DocNode): boolean {
    const o = resolveSchema(resolvers.old, a);
    const n = resolveSchema(resolvers.new, b);
    const key = `${o.key}${o.nullable === true ? '?' : ''}|${n.key}${n.nullable === true ? '?' : ''}`;
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    if (pending.has(key)) return true;
    pending.add(key);
    const result = compareBodies(o, n);
    pending.delete(key);
    if (!result) known.set(key, false);
    else tentative.push(key);
    return result;
  }

  function compareBodies(o: ResolvedNode, n: ResolvedNode): boolean {
    const os = asSchema(o.value);
    const ns = asSchema(n.value);
    if ((os.nullable === true || o.nullable === true) !== (ns.nullable === true || n.nullable === true)) return false;
    const keys = new Set([...Object.keys(os), ...Object.keys(ns)]);
    for (const k of keys) {
      if (ANNOTATION_KEYS.has(k) || k.startsWith('x-') || k === 'nullable') continue;
      const ov = os[k];
      const nv = ns[k];
      if (ov === undefined || nv === undefined) return false;
      const child = (value: unknown, node: DocNode, ...path: (string | number)[]) => nodeAt(node, value, k, ...path);
      if (SCHEMA_MAP_KEYS.has(k)) {
        if (!isObjectLike(ov) || !isObjectLike(nv)) return false;
        const names = Object.keys(ov);
        if (names.length !== Object.keys(nv).length) return false;
        for (const name of names) {
          if (!Object.hasOwn(nv, name) || !compareNodes(child(ov[name], o, name), child(nv[name], n, name)))
            return false;
        }
      } else if (SCHEMA_KEYS.has(k) && isObjectLike(ov) && isObjectLike(nv)) {
        if (!compareNodes(child(ov, o), child(nv, n))) return false;
      } else if (SCHEMA_LIST_KEYS.has(k)) {
        if (!Array.isArray(ov) || !Array.isArray(nv)) return false;
        // A union's null-only members are its nullability, compared above.
        const keep = (list: unknown[]) =>
          list
            .map((value, i) => ({ value, i }))
            .filter((m) => !(k === 'anyOf' || k === 'oneOf') || !isNullOnly(m.value));
        const om = keep(ov);
        const nm = keep(nv);
        if (om.length !== nm.length) return false;
        if (!om.every((a, j) => compareNodes(child(a.value, o, a.i), child(nm[j]!.value, n, nm[j]!.i)))) return false;
      } else if (!sameValue(ov, nv, UNORDERED_KEYS.has(k))) {
        return false;
      }
    }
    return true;
  }

  return {
    equivalent(a, b) {
      tentative = [];
      const result = compareNodes(a, b);
      // Equal answers lean on the coinductive assumption, so they only stand when the whole run did.
      for (const key of tentative) if (result) known.set(key, true);
      tentative = [];
      return result;
    },
  };
}

/** Deep equality of JSON values; `unordered` compares arrays as sets. */
export function sameValue(a: unknown, b: unknown, unordered = false): boolean {
  if (Array.isArray(a) && Array.isArray(b) && unordered) {
    if (a.length !== b.length) return false;
    const keys = new Set(a.map(canonicalJson));
    return b.every((v) => keys.has(canonicalJson(v)));
  }
  return canonicalJson(a) === canonicalJson(b);
}

/** JSON with object keys sorted, so key order never counts as a difference. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObjectLike(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
