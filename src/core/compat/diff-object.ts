import { describeValue, emit, type DiffContext, type ResolvedPair } from './diff-context.ts';
import { checkSunsetNotice, judgeRemoval } from './sunset.ts';
import { joinPointer, nodeAt, type DocNode } from './json-pointer.ts';
import type { RefResolver } from './ref-resolver.ts';
import { asSchema, isObjectLike, propertiesOf, requiredOf, resolveSchema } from './schema-model.ts';
import type { Direction } from './types.ts';

interface Fields {
  properties: Map<string, DocNode>;
  required: Set<string>;
}

/**
 * Compare object properties, required lists and additionalProperties, with allOf members
 * flattened in.
 */
export function diffObject(ctx: DiffContext, p: ResolvedPair): void {
  // Fields brought in by allOf members count as the object's own, so moving a field into a
  // shared base is no change. A member's own changes land at the member's pointers and are
  // deduplicated with those found when the member itself is compared.
  const oldFields = collectFields(ctx.old.resolver, p.o);
  const newFields = collectFields(ctx.new.resolver, p.n);
  if (oldFields.properties.size > 0 || newFields.properties.size > 0) diffProperties(ctx, { p, oldFields, newFields });
  diffAdditional(ctx, p);
}

function diffProperties(ctx: DiffContext, args: { p: ResolvedPair; oldFields: Fields; newFields: Fields }): void {
  const { p, oldFields, newFields } = args;
  const skip = (node: DocNode | undefined, side: 'old' | 'new') =>
    node !== undefined && isHidden(side === 'old' ? ctx.old.resolver : ctx.new.resolver, node, p.direction);
  const visible = (name: string) =>
    !skip(oldFields.properties.get(name), 'old') && !skip(newFields.properties.get(name), 'new');
  const removed = [...oldFields.properties.keys()].filter((k) => !newFields.properties.has(k) && visible(k));
  const added = [...newFields.properties.keys()].filter((k) => !oldFields.properties.has(k) && visible(k));
  const field = (name: string) => describeValue(p.direction, `${p.label}.${name}`, 'field');

  const [gone] = removed;
  const [fresh] = added;
  if (
    removed.length === 1 &&
    added.length === 1 &&
    gone !== undefined &&
    fresh !== undefined &&
    similarNames(gone, fresh) &&
    ctx.equivalence.equivalent(oldFields.properties.get(gone) as DocNode, newFields.properties.get(fresh) as DocNode)
  ) {
    emit(ctx, `${p.direction}-property-renamed`, {
      at: newFields.properties.get(fresh) as DocNode,
      direction: p.direction,
      oldValue: gone,
      newValue: fresh,
      message: `${field(gone)} seems renamed to \`${fresh}\`; clients using the old name break.`,
    });
  } else {
    for (const name of removed) {
      const at = oldFields.properties.get(name) as DocNode;
      const removal = judgeRemoval(ctx, `${p.direction}-property`, ctx.old.resolver.resolve(at).value);
      const message = `${field(name)} was removed${removal.tail}.`;
      emit(ctx, removal.id, { at, side: 'old', direction: p.direction, oldValue: name, message });
    }
    for (const name of added) {
      const at = newFields.properties.get(name) as DocNode;
      const [id, kind] =
        p.direction === 'response'
          ? (['response-property-added', ''] as const)
          : newFields.required.has(name)
            ? (['request-property-added-required', ' as a required field'] as const)
            : (['request-property-added-optional', ' as an optional field'] as const);
      emit(ctx, id, { at, direction: p.direction, newValue: name, message: `${field(name)} was added${kind}.` });
    }
  }
  for (const [name, oldNode] of oldFields.properties) {
    const newNode = newFields.properties.get(name);
    if (newNode === undefined || !visible(name)) continue;
    diffRequired(ctx, { p, name, at: newNode, was: oldFields.required.has(name), now: newFields.required.has(name) });
    diffDeprecated(ctx, { p, name, oldNode, newNode });
    p.recurse(ctx, { old: oldNode, new: newNode, direction: p.direction, label: `${p.label}.${name}` });
  }
  if (p.direction === 'response') diffOrder(ctx, { p, oldFields, newFields });
}

function diffRequired(
  ctx: DiffContext,
  args: { p: ResolvedPair; name: string; at: DocNode; was: boolean; now: boolean },
): void {
  const { p, name, at, was, now } = args;
  if (was === now) return;
  const oldValue = was ? 'required' : 'optional';
  const newValue = now ? 'required' : 'optional';
  const message =
    p.direction === 'request'
      ? `Request field \`${p.label}.${name}\` became ${newValue}.`
      : `Response field \`${p.label}.${name}\` ${now ? 'is now always present' : 'may now be missing'}.`;
  emit(ctx, `${p.direction}-property-became-${newValue}`, { at, direction: p.direction, oldValue, newValue, message });
}

function diffDeprecated(
  ctx: DiffContext,
  args: { p: ResolvedPair; name: string; oldNode: DocNode; newNode: DocNode },
): void {
  const was = asSchema(ctx.old.resolver.resolve(args.oldNode).value).deprecated === true;
  const newValue = ctx.new.resolver.resolve(args.newNode).value;
  const now = asSchema(newValue).deprecated === true;
  if (was || !now) return;
  const { p, name } = args;
  const what = describeValue(p.direction, `${p.label}.${name}`, 'field');
  const message = `${what} was deprecated.`;
  emit(ctx, `${p.direction}-property-deprecated`, {
    at: args.newNode,
    direction: p.direction,
    newValue: name,
    message,
  });
  checkSunsetNotice(ctx, { kind: `${p.direction}-property`, element: newValue, at: args.newNode, what });
}

function diffOrder(ctx: DiffContext, args: { p: ResolvedPair; oldFields: Fields; newFields: Fields }): void {
  const oldOrder = [...args.oldFields.properties.keys()].filter((k) => args.newFields.properties.has(k));
  const newOrder = [...args.newFields.properties.keys()].filter((k) => args.oldFields.properties.has(k));
  if (oldOrder.every((k, i) => newOrder[i] === k)) return;
  emit(ctx, 'response-property-order-changed', {
    at: { uri: args.p.n.uri, pointer: joinPointer(args.p.n.pointer, 'properties') },
    direction: 'response',
    oldValue: oldOrder,
    newValue: newOrder,
    message: `Response fields of \`${args.p.label}\` changed order; only clients that rely on position are affected.`,
  });
}

function diffAdditional(ctx: DiffContext, p: ResolvedPair): void {
  const oa = asSchema(p.o.value).additionalProperties;
  const na = asSchema(p.n.value).additionalProperties;
  const base = { at: nodeAt(p.n, na, 'additionalProperties'), direction: p.direction, oldValue: oa, newValue: na };
  const what = describeValue(p.direction, p.label, 'object');
  if (oa !== false && na === false) {
    const message = `${what} no longer allows extra fields.`;
    emit(ctx, `${p.direction}-additional-properties-restricted`, { ...base, message });
  } else if (oa === false && na !== undefined && na !== false) {
    emit(ctx, `${p.direction}-additional-properties-allowed`, { ...base, message: `${what} now allows extra fields.` });
  } else if (isObjectLike(oa) && isObjectLike(na)) {
    p.recurse(ctx, {
      old: nodeAt(p.o, oa, 'additionalProperties'),
      new: nodeAt(p.n, na, 'additionalProperties'),
      direction: p.direction,
      label: `${p.label}.*`,
    });
  }
}

/** Clients never send read-only fields and never receive write-only ones. */
function isHidden(resolver: RefResolver, node: DocNode, direction: Direction): boolean {
  const schema = asSchema(resolver.resolve(node).value);
  return direction === 'request' ? schema.readOnly === true : schema.writeOnly === true;
}

/**
 * The properties of a resolved schema and its required names, those of its `allOf` members (32
 * levels deep at most, counted from `depth`) flattened in; the first to name a property places it.
 */
export function collectFields(resolver: RefResolver, node: DocNode, depth = 0): Fields {
  const schema = asSchema(node.value);
  const properties = new Map<string, DocNode>();
  const required = requiredOf(schema);
  for (const [name, value] of Object.entries(propertiesOf(schema))) {
    properties.set(name, nodeAt(node, value, 'properties', name));
  }
  if (Array.isArray(schema.allOf) && depth < 32) {
    schema.allOf.forEach((member, i) => {
      const inner = collectFields(resolver, resolveSchema(resolver, nodeAt(node, member, 'allOf', i)), depth + 1);
      for (const [name, field] of inner.properties) if (!properties.has(name)) properties.set(name, field);
      for (const name of inner.required) required.add(name);
    });
  }
  return { properties, required };
}

/** A rename keeps part of the name (`name` to `fullName`, `user_id` to `userId`); anything else is a removal and an addition. */
function similarNames(a: string, b: string): boolean {
  const flat = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const words = (s: string) =>
    new Set(
      s
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((w) => w.length > 2),
    );
  if (flat(a).includes(flat(b)) || flat(b).includes(flat(a))) return true;
  const wb = words(b);
  return [...words(a)].some((w) => wb.has(w));
}
