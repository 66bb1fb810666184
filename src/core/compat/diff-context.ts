import type { DocumentSet } from './document-set.ts';
import { createEquivalenceChecker, type EquivalenceChecker } from './equivalence.ts';
import type { Audience } from '../lifecycle/schedule.ts';
import { parsePointer, type DocNode } from './json-pointer.ts';
import { methodOfMember, operationMembers } from '../versions/openapi.ts';
import { createRefResolver, type RefResolver, type ResolvedNode } from './ref-resolver.ts';
import { compatRules, type RuleId } from './rules.ts';
import type { Change, ChangeLocation, Direction } from './types.ts';

/** One of the two descriptions: its documents and the resolver over them. */
export interface Side {
  set: DocumentSet;
  resolver: RefResolver;
}

/** Shared state of one diff run. */
export interface DiffContext {
  old: Side;
  new: Side;
  equivalence: EquivalenceChecker;
  /** Schema pairs already compared, per direction: the memo that makes cycles terminate. */
  compared: Set<string>;
  changes: Change[];
  /** Operation being walked, named on changes found inside shared component schemas. */
  via: string | undefined;
  /** Schema pair being compared (its memo key), so changes and nested pairs know their owner. */
  owner: string | undefined;
  /** Who reaches each schema pair: enclosing pairs, or `op:<METHOD path>` for operations. */
  reachedFrom: Map<string, Set<string>>;
  ownerOf: Map<Change, string>;
  /** The instant sunset dates are judged against; without it no sunset counts as passed. */
  now: number | undefined;
  /** Who the API serves, and so how much notice a new sunset date owes its clients. */
  audience: Audience;
}

/** What an emitter needs besides the rule id. */
export interface EmitOptions {
  /** Where the change sits: in the new document, or in the old one (`side: 'old'`) for removals. */
  at: { uri: string; pointer: string };
  side?: 'old' | 'new';
  direction?: Direction;
  oldValue?: unknown;
  newValue?: unknown;
  message: string;
}

export function createDiffContext(sets: {
  base: DocumentSet;
  revision: DocumentSet;
  now?: number;
  audience?: Audience;
}): DiffContext {
  const oldResolver = createRefResolver(sets.base);
  const newResolver = createRefResolver(sets.revision);
  return {
    old: { set: sets.base, resolver: oldResolver },
    new: { set: sets.revision, resolver: newResolver },
    equivalence: createEquivalenceChecker({ old: oldResolver, new: newResolver }),
    compared: new Set(),
    changes: [],
    via: undefined,
    owner: undefined,
    reachedFrom: new Map(),
    ownerOf: new Map(),
    now: sets.now,
    audience: sets.audience ?? 'public',
  };
}

/** Record one change; its level always comes from the rule registry. */
export function emit(ctx: DiffContext, id: RuleId, options: EmitOptions): void {
  const location = locate(ctx, options);
  const change: Change = { id, level: compatRules[id].level, location, message: options.message };
  if (options.direction !== undefined) change.direction = options.direction;
  if (options.oldValue !== undefined) change.oldValue = options.oldValue;
  if (options.newValue !== undefined) change.newValue = options.newValue;
  ctx.changes.push(change);
  if (ctx.owner !== undefined) ctx.ownerOf.set(change, ctx.owner);
}

/**
 * Walk two keyed maps: the keys only the old one has, then the new one's in order, each with its
 * old counterpart or alone.
 */
export function matchKeys<K, O, N>(
  old: ReadonlyMap<K, O>,
  now: ReadonlyMap<K, N>,
  on: { removed(o: O, key: K): void; added(n: N, key: K): void; both(o: O, n: N, key: K): void },
): void {
  for (const [key, o] of old) if (!now.has(key)) on.removed(o, key);
  for (const [key, n] of now) {
    const o = old.get(key);
    if (o === undefined) on.added(n, key);
    else on.both(o, n, key);
  }
}

/** Record that the current pair (or operation) reaches schema pair `key`. */
export function linkPair(ctx: DiffContext, key: string): void {
  const from = ctx.owner ?? `op:${ctx.via ?? ''}`;
  let parents = ctx.reachedFrom.get(key);
  if (parents === undefined) ctx.reachedFrom.set(key, (parents = new Set()));
  parents.add(from);
}

/** Every operation that reaches a schema pair, walking the reach graph upwards. */
export function operationsReaching(ctx: DiffContext, key: string): string[] {
  const ops = new Set<string>();
  const seen = new Set<string>([key]);
  const queue = [key];
  while (queue.length > 0) {
    for (const parent of ctx.reachedFrom.get(queue.pop() as string) ?? []) {
      if (parent.startsWith('op:')) ops.add(parent.slice(3));
      else if (!seen.has(parent)) {
        seen.add(parent);
        queue.push(parent);
      }
    }
  }
  // By path, then method: each path cut once, and one collator (what `localeCompare` builds per call).
  const compare = (collator ??= new Intl.Collator()).compare;
  const rows = [...ops].map((op) => ({ op, path: op.slice(op.indexOf(' ') + 1) }));
  rows.sort((a, b) => compare(a.path, b.path) || compare(a.op, b.op));
  return rows.map((row) => row.op);
}

let collator: Intl.Collator | undefined;

function locate(ctx: DiffContext, options: EmitOptions): ChangeLocation {
  const root = options.side === 'old' ? ctx.old.set.root : ctx.new.set.root;
  const location: ChangeLocation = { pointer: options.at.pointer };
  if (options.at.uri !== root) location.document = options.at.uri;
  const tokens = parsePointer(options.at.pointer);
  if (tokens[0] === 'paths' && tokens[1] !== undefined && tokens[2] !== undefined && location.document === undefined) {
    location.path = tokens[1];
    if (operationMembers.includes(tokens[2])) location.method = methodOfMember(tokens[2]);
    else if (tokens[2] === 'additionalOperations' && tokens[3] !== undefined) location.method = tokens[3];
  } else if (ctx.via !== undefined) {
    location.via = ctx.via;
  }
  return location;
}

/** The HTTP methods an OpenAPI path item has a fixed field for (`GET` … `QUERY`). */
export const FIXED_METHODS: ReadonlySet<string> = new Set(operationMembers.map(methodOfMember));

/** A pair of schemas to compare and the way data flows through them. */
export interface SchemaPair {
  old: DocNode;
  new: DocNode;
  direction: Direction;
  /** Dotted name of the value for messages (`customer.address.city`). */
  label: string;
}

/** A resolved pair, as the keyword comparers receive it. */
export interface ResolvedPair {
  o: ResolvedNode;
  n: ResolvedNode;
  direction: Direction;
  label: string;
  /**
   * `compareSchemas` itself, handed down so that the keyword comparers (objects, variants) recurse
   * into nested schemas without importing diff-schema.ts, which imports them.
   */
  recurse: (ctx: DiffContext, pair: SchemaPair) => void;
}

/**
 * The identity of a resolved schema for memo keys: its place, plus whether a nullable wrapper
 * was peeled off (the same component reached nullable and not nullable differs).
 */
export function nodeKey(node: ResolvedNode): string {
  return node.nullable === true ? `${node.key}?` : node.key;
}

/** `Request value \`user.name\``: a place in a request or response, named for messages. */
export function describeValue(direction: Direction, label: string, noun = 'value'): string {
  return `${direction === 'request' ? 'Request' : 'Response'} ${noun} \`${label}\``;
}
