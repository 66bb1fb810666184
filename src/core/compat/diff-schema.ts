import {
  emit,
  linkPair,
  type DiffContext,
  describeValue,
  nodeKey,
  type ResolvedPair,
  type SchemaPair,
} from './diff-context.ts';
import { diffConstraints } from './diff-constraints.ts';
import { diffObject } from './diff-object.ts';
import { diffVariants, isUnionMismatch } from './diff-variants.ts';
import { canonicalJson, sameValue } from './equivalence.ts';
import { nodeAt, type DocNode } from './json-pointer.ts';
import type { RefResolver } from './ref-resolver.ts';
import { asSchema, formatTypes, isObjectLike, isTypeSubset, resolveSchema, typeInfo } from './schema-model.ts';

/**
 * Compare two schemas and record every change. Each (old location, new location, direction)
 * is compared once, so shared component schemas report their changes once, at the schema, and
 * circular refs terminate.
 */
export function compareSchemas(ctx: DiffContext, pair: SchemaPair): void {
  const o = resolveSchema(ctx.old.resolver, pair.old);
  let n = resolveSchema(ctx.new.resolver, pair.new);
  // Nullability gained or lost by a peeled wrapper belongs to the place that uses the schema.
  if (o.nullable !== n.nullable && n.site === undefined)
    n = { ...n, site: { uri: pair.new.uri, pointer: pair.new.pointer } };
  const memo = `${pair.direction}|${nodeKey(o)}|${nodeKey(n)}`;
  linkPair(ctx, memo);
  if (ctx.compared.has(memo)) return;
  ctx.compared.add(memo);
  const outer = ctx.owner;
  ctx.owner = memo;
  try {
    compareResolved(ctx, {
      o,
      n,
      direction: pair.direction,
      label: n.name ?? o.name ?? pair.label,
      recurse: compareSchemas,
    });
  } finally {
    ctx.owner = outer;
  }
}

function compareResolved(ctx: DiffContext, resolved: ResolvedPair): void {
  const { o, n } = resolved;
  if (isUnionMismatch(o.value, n.value)) {
    diffTypes(ctx, resolved);
    diffVariants(ctx, resolved);
    return;
  }
  if (!diffTypes(ctx, resolved)) {
    compareSharedRefs(ctx, resolved);
    return;
  }
  diffFormat(ctx, resolved);
  diffEnum(ctx, resolved);
  diffConstraints(ctx, resolved);
  if (resolved.direction === 'request') diffDefault(ctx, resolved);
  diffDiscriminator(ctx, resolved);
  diffObject(ctx, resolved);
  diffItems(ctx, resolved);
  diffVariants(ctx, resolved);
}

/** Returns false when the types are incompatible: deeper differences would only repeat it. */
function diffTypes(ctx: DiffContext, p: ResolvedPair): boolean {
  const ot = typeInfo(asSchema(p.o.value), p.o);
  const nt = typeInfo(asSchema(p.n.value), p.n);
  const base = { at: p.n, direction: p.direction };
  let compatible = true;
  if (ot.types !== undefined && nt.types !== undefined && !sameTypes(ot.types, nt.types)) {
    const oldValue = formatTypes(ot.types);
    const newValue = formatTypes(nt.types);
    const what = `${describeValue(p.direction, p.label)} changed type from ${oldValue} to ${newValue}`;
    const widened = p.direction === 'request' && isTypeSubset(ot.types, nt.types);
    const narrowed = p.direction === 'response' && isTypeSubset(nt.types, ot.types);
    compatible = widened || narrowed;
    const [id, tail] = widened
      ? (['request-type-widened', '; every old value is still accepted'] as const)
      : narrowed
        ? (['response-type-narrowed', '; every new value was valid before'] as const)
        : ([`${p.direction}-type-changed`, ''] as const);
    emit(ctx, id, { ...base, oldValue, newValue, message: `${what}${tail}.` });
  }
  if (ot.nullable !== nt.nullable) {
    const id = `${p.direction}-became-${nt.nullable ? 'nullable' : 'not-nullable'}` as const;
    const message = `${describeValue(p.direction, p.label)} ${nt.nullable ? 'may now be null' : 'can no longer be null'}.`;
    // A peeled wrapper (`anyOf: [X, null]`) carries the nullability, not the shared schema X.
    emit(ctx, id, { ...base, at: p.n.site ?? p.n, oldValue: ot.nullable, newValue: nt.nullable, message });
  }
  return compatible;
}

function sameTypes(a: ReadonlySet<string> | null, b: ReadonlySet<string> | null): boolean {
  if (a === null || b === null) return a === b;
  return a.size === b.size && [...a].every((t) => b.has(t));
}

function diffFormat(ctx: DiffContext, p: ResolvedPair): void {
  const of = asSchema(p.o.value).format;
  const nf = asSchema(p.n.value).format;
  if (of === nf || (of === undefined && nf === undefined)) return;
  const base = { at: p.n, direction: p.direction, oldValue: of, newValue: nf };
  const what = describeValue(p.direction, p.label);
  if (of === undefined)
    emit(ctx, `${p.direction}-format-added`, { ...base, message: `${what} now has format ${String(nf)}.` });
  else if (nf === undefined)
    emit(ctx, `${p.direction}-format-removed`, { ...base, message: `${what} no longer has format ${String(of)}.` });
  else
    emit(ctx, `${p.direction}-format-changed`, {
      ...base,
      message: `${what} changed format from ${String(of)} to ${String(nf)}.`,
    });
}

function enumOf(schema: Record<string, unknown>): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  return schema.const !== undefined ? [schema.const] : undefined;
}

function diffEnum(ctx: DiffContext, p: ResolvedPair): void {
  const oe = enumOf(asSchema(p.o.value));
  const ne = enumOf(asSchema(p.n.value));
  if (oe === undefined && ne === undefined) return;
  const base = { at: nodeAt(p.n, ne, 'enum'), direction: p.direction };
  const what = describeValue(p.direction, p.label);
  if (oe === undefined) {
    const message = `${what} is now restricted to ${formatList(ne ?? [])}.`;
    emit(ctx, `${p.direction}-became-enum`, { ...base, newValue: ne, message });
    return;
  }
  if (ne === undefined) {
    const message = `${what} is no longer restricted to ${formatList(oe)}.`;
    emit(ctx, `${p.direction}-enum-removed`, { ...base, oldValue: oe, message });
    return;
  }
  // Most enums are the same list on both sides: nothing to report, and no need to spell each value.
  if (oe.length === ne.length && oe.every((v, i) => v === ne[i] && typeof v !== 'object')) return;
  const oldKeys = new Set(oe.map(canonicalJson));
  const newKeys = new Set(ne.map(canonicalJson));
  for (const v of oe) {
    if (newKeys.has(canonicalJson(v))) continue;
    const message = `${what} no longer ${p.direction === 'request' ? 'accepts' : 'takes'} the value ${canonicalJson(v)}.`;
    emit(ctx, `${p.direction}-enum-value-removed`, { ...base, oldValue: v, message });
  }
  for (const v of ne) {
    if (oldKeys.has(canonicalJson(v))) continue;
    const message = `${what} may now take the value ${canonicalJson(v)}.`;
    emit(ctx, `${p.direction}-enum-value-added`, { ...base, newValue: v, message });
  }
}

function formatList(values: unknown[]): string {
  const shown = values.slice(0, 8).map(canonicalJson).join(', ');
  return values.length > 8 ? `${shown}, ... (${values.length} values)` : shown;
}

function diffDefault(ctx: DiffContext, p: ResolvedPair): void {
  const od = asSchema(p.o.value).default;
  const nd = asSchema(p.n.value).default;
  if (od === undefined && nd === undefined) return;
  if (od !== undefined && nd !== undefined && sameValue(od, nd)) return;
  const message = `${describeValue('request', p.label)} default changed from ${od === undefined ? 'none' : canonicalJson(od)} to ${nd === undefined ? 'none' : canonicalJson(nd)}.`;
  emit(ctx, 'request-default-changed', { at: p.n, direction: 'request', oldValue: od, newValue: nd, message });
}

function diffDiscriminator(ctx: DiffContext, p: ResolvedPair): void {
  const od = asSchema(p.o.value).discriminator;
  const nd = asSchema(p.n.value).discriminator;
  if (!isObjectLike(od) && !isObjectLike(nd)) return;
  const oldName = isObjectLike(od) ? od.propertyName : undefined;
  const newName = isObjectLike(nd) ? nd.propertyName : undefined;
  const oldKeys = isObjectLike(od) && isObjectLike(od.mapping) ? Object.keys(od.mapping) : [];
  const newKeys = new Set(isObjectLike(nd) && isObjectLike(nd.mapping) ? Object.keys(nd.mapping) : []);
  const lost = oldKeys.filter((k) => !newKeys.has(k));
  if (oldName === newName && lost.length === 0) return;
  const message =
    oldName === newName
      ? `${describeValue(p.direction, p.label)} discriminator no longer maps ${lost.join(', ')}.`
      : `${describeValue(p.direction, p.label)} discriminator property changed from ${String(oldName ?? 'none')} to ${String(newName ?? 'none')}.`;
  emit(ctx, `${p.direction}-discriminator-changed`, {
    at: nodeAt(p.n, nd, 'discriminator'),
    direction: p.direction,
    oldValue: od,
    newValue: nd,
    message,
  });
}

function diffItems(ctx: DiffContext, p: ResolvedPair): void {
  const oi = asSchema(p.o.value).items;
  const ni = asSchema(p.n.value).items;
  if (oi === undefined || ni === undefined || Array.isArray(oi) || Array.isArray(ni)) return;
  compareSchemas(ctx, {
    old: nodeAt(p.o, oi, 'items'),
    new: nodeAt(p.n, ni, 'items'),
    direction: p.direction,
    label: `${p.label}[]`,
  });
}

/**
 * A value whose type changed (a bare array wrapped in `{ data, meta }`) is not compared deeper,
 * but a named schema it held before and still holds (the list's `User` items) reaches the same
 * clients: its own changes are compared, so a field added to `User` names the list operation too.
 */
function compareSharedRefs(ctx: DiffContext, p: ResolvedPair): void {
  const before = namedRefs(ctx.old.resolver, p.o);
  const after = namedRefs(ctx.new.resolver, p.n);
  for (const [name, old] of before) {
    const revised = after.get(name);
    if (revised !== undefined) p.recurse(ctx, { old, new: revised, direction: p.direction, label: name });
  }
}

/** The `$ref`s written inside a schema (without following them), by the component they name. */
function namedRefs(resolver: RefResolver, root: DocNode): Map<string, DocNode> {
  const found = new Map<string, DocNode>();
  const walk = (node: DocNode, depth: number): void => {
    if (!isObjectLike(node.value) || depth > 8) return;
    if (typeof node.value.$ref === 'string' && depth > 0) {
      const name = resolver.resolve(node).name;
      if (name !== undefined && !found.has(name)) found.set(name, node);
      return;
    }
    for (const [key, value] of Object.entries(node.value)) {
      if (key === 'examples' || key === 'example' || key === 'default' || key === 'enum' || key === 'const') continue;
      if (typeof value === 'object' && value !== null) walk(nodeAt(node, value, key), depth + 1);
    }
  };
  walk(root, 0);
  return found;
}
