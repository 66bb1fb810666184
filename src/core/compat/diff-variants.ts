import { emit, type DiffContext, describeValue, nodeKey, type ResolvedPair } from './diff-context.ts';
import { nodeAt, type DocNode } from './json-pointer.ts';
import type { RefResolver, ResolvedNode } from './ref-resolver.ts';
import { isNullOnly } from './normalize-schema.ts';
import { asSchema, formatTypes, resolveSchema, typeInfo } from './schema-model.ts';

interface Member {
  node: DocNode;
  resolved: ResolvedNode;
}

/**
 * Whether exactly one side is a oneOf/anyOf union: then the other side is compared as a
 * union of one, and the keyword-by-keyword comparison would only repeat noise.
 */
export function isUnionMismatch(oldSchema: unknown, newSchema: unknown): boolean {
  return (unionKey(asSchema(oldSchema)) === undefined) !== (unionKey(asSchema(newSchema)) === undefined);
}

/**
 * Compare oneOf/anyOf alternatives and allOf members. Members are matched by component name,
 * then by structural equality (so a renamed or inlined ref matches), then by type.
 */
export function diffVariants(ctx: DiffContext, p: ResolvedPair): void {
  const os = asSchema(p.o.value);
  const ns = asSchema(p.n.value);
  const ok = unionKey(os);
  const nk = unionKey(ns);
  if (ok !== undefined || nk !== undefined) {
    const oldMembers = ok === undefined ? [{ node: p.o, resolved: p.o }] : membersOf(ctx.old.resolver, p.o, ok);
    const newMembers = nk === undefined ? [{ node: p.n, resolved: p.n }] : membersOf(ctx.new.resolver, p.n, nk);
    const { pairs, removed, added } = matchMembers(ctx, { old: oldMembers, new: newMembers });
    reportMembers(ctx, p, { removed, added, kind: 'variant' });
    for (const [a, b] of pairs) {
      if (nodeKey(a.resolved) === nodeKey(p.o) && nodeKey(b.resolved) === nodeKey(p.n)) continue;
      p.recurse(ctx, { old: a.node, new: b.node, direction: p.direction, label: p.label });
    }
  }
  if (Array.isArray(os.allOf) && Array.isArray(ns.allOf)) diffAllOf(ctx, p);
}

function diffAllOf(ctx: DiffContext, p: ResolvedPair): void {
  const { pairs, removed, added } = matchMembers(ctx, {
    old: membersOf(ctx.old.resolver, p.o, 'allOf'),
    new: membersOf(ctx.new.resolver, p.n, 'allOf'),
    byPosition: true,
  });
  reportMembers(ctx, p, { removed, added, kind: 'all-of' });
  for (const [a, b] of pairs) p.recurse(ctx, { old: a.node, new: b.node, direction: p.direction, label: p.label });
}

function reportMembers(
  ctx: DiffContext,
  p: ResolvedPair,
  found: { removed: Member[]; added: Member[]; kind: 'variant' | 'all-of' },
): void {
  const what = describeValue(p.direction, p.label);
  const union = found.kind === 'variant';
  for (const m of found.removed) {
    const name = memberName(m);
    emit(ctx, `${p.direction}-${found.kind}-removed`, {
      at: m.node,
      side: 'old',
      direction: p.direction,
      oldValue: name,
      message: union ? `${what} lost the alternative ${name}.` : `${what} no longer includes ${name} (allOf).`,
    });
  }
  for (const m of found.added) {
    const name = memberName(m);
    const message = union ? `${what} has a new alternative ${name}.` : `${what} now also includes ${name} (allOf).`;
    emit(ctx, `${p.direction}-${found.kind}-added`, { at: m.node, direction: p.direction, newValue: name, message });
  }
}

function unionKey(schema: Record<string, unknown>): 'oneOf' | 'anyOf' | undefined {
  if (Array.isArray(schema.oneOf)) return 'oneOf';
  if (Array.isArray(schema.anyOf)) return 'anyOf';
  return undefined;
}

/** Null-only members of a union are its nullability (compared as such), not alternatives. */
function membersOf(resolver: RefResolver, node: ResolvedNode, key: 'oneOf' | 'anyOf' | 'allOf'): Member[] {
  return (asSchema(node.value)[key] as unknown[]).flatMap((value, i) => {
    if (key !== 'allOf' && isNullOnly(value)) return [];
    const raw = nodeAt(node, value, key, i);
    return [{ node: raw, resolved: resolveSchema(resolver, raw) }];
  });
}

function memberName(m: Member): string {
  if (m.resolved.name !== undefined) return `\`${m.resolved.name}\``;
  return formatTypes(typeInfo(asSchema(m.resolved.value)).types);
}

function matchMembers(ctx: DiffContext, members: { old: Member[]; new: Member[]; byPosition?: boolean }) {
  const { old: oldMembers, new: newMembers, byPosition = false } = members;
  const pairs: [Member, Member][] = [];
  const oldLeft = new Set(oldMembers);
  const newLeft = new Set(newMembers);
  const pass = (same: (a: Member, b: Member) => boolean) => {
    for (const a of oldLeft) {
      for (const b of newLeft) {
        if (!same(a, b)) continue;
        pairs.push([a, b]);
        oldLeft.delete(a);
        newLeft.delete(b);
        break;
      }
    }
  };
  pass((a, b) => a.resolved.name !== undefined && a.resolved.name === b.resolved.name);
  pass((a, b) => ctx.equivalence.equivalent(a.node, b.node));
  pass((a, b) => {
    const ta = typeInfo(asSchema(a.resolved.value)).types;
    const tb = typeInfo(asSchema(b.resolved.value)).types;
    return ta !== undefined && tb !== undefined && formatTypes(ta) === formatTypes(tb);
  });
  if (byPosition) pass(() => true);
  return { pairs, removed: [...oldLeft], added: [...newLeft] };
}
