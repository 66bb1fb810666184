// The pair types and message helpers that diff-schema.ts and its keyword comparers share: a leaf,
// so that the comparers need not import diff-schema.ts back.
import type { DiffContext, DocNode } from './diff-context.ts';
import type { ResolvedNode } from './ref-resolver.ts';
import type { Direction } from './types.ts';

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

/** A short name for the value in messages. */
export function describeValue(direction: Direction, label: string): string {
  return `${direction === 'request' ? 'Request' : 'Response'} value \`${label}\``;
}
