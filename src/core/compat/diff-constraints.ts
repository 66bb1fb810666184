import { emit, type DiffContext } from './diff-context.ts';
import type { ResolvedPair } from './diff-schema.ts';
import { describeValue } from './diff-schema.ts';
import { canonicalJson } from './equivalence.ts';
import { joinPointer } from './json-pointer.ts';
import { asSchema } from './schema-model.ts';

type Verdict = 'tightened' | 'relaxed' | 'changed';

/** Upper bounds: a smaller value accepts less. */
const UPPER = ['maxLength', 'maximum', 'maxItems', 'maxProperties', 'maxContains'] as const;
/** Lower bounds: a larger value accepts less. */
const LOWER = ['minLength', 'minimum', 'minItems', 'minProperties', 'minContains'] as const;

/**
 * Compare validation keywords. Tightening a request bound breaks clients; loosening a response
 * bound may hand clients values they never saw.
 *
 * @example
 * ```ts
 * diffConstraints(ctx, { o, n, direction: 'request', label: 'name' });
 * ```
 */
export function diffConstraints(ctx: DiffContext, p: ResolvedPair): void {
  const os = asSchema(p.o.value);
  const ns = asSchema(p.n.value);
  for (const key of UPPER) report(ctx, p, { key, verdict: compareBound(os[key], ns[key], -1) });
  for (const key of LOWER) report(ctx, p, { key, verdict: compareBound(os[key], ns[key], 1) });
  report(ctx, p, { key: 'exclusiveMaximum', verdict: compareExclusive(os.exclusiveMaximum, ns.exclusiveMaximum, -1) });
  report(ctx, p, { key: 'exclusiveMinimum', verdict: compareExclusive(os.exclusiveMinimum, ns.exclusiveMinimum, 1) });
  report(ctx, p, { key: 'pattern', verdict: compareOpaque(os.pattern, ns.pattern) });
  report(ctx, p, { key: 'multipleOf', verdict: compareOpaque(os.multipleOf, ns.multipleOf) });
  report(ctx, p, { key: 'uniqueItems', verdict: compareFlag(os.uniqueItems, ns.uniqueItems) });
}

/** `sign` is -1 for upper bounds (new < old tightens) and 1 for lower bounds. */
function compareBound(oldValue: unknown, newValue: unknown, sign: number): Verdict | undefined {
  const o = typeof oldValue === 'number' ? oldValue : undefined;
  const n = typeof newValue === 'number' ? newValue : undefined;
  if (o === n) return undefined;
  if (o === undefined) return 'tightened';
  if (n === undefined) return 'relaxed';
  return (n - o) * sign > 0 ? 'tightened' : 'relaxed';
}

/** 3.0 uses booleans, 3.1 numbers; a boolean flip is ordered, a number behaves as a bound. */
function compareExclusive(oldValue: unknown, newValue: unknown, sign: number): Verdict | undefined {
  if (typeof oldValue === 'number' || typeof newValue === 'number') {
    if (typeof oldValue === 'boolean' || typeof newValue === 'boolean') return oldValue === newValue ? undefined : 'changed';
    return compareBound(oldValue, newValue, sign);
  }
  return compareFlag(oldValue, newValue);
}

function compareFlag(oldValue: unknown, newValue: unknown): Verdict | undefined {
  const o = oldValue === true;
  const n = newValue === true;
  if (o === n) return undefined;
  return n ? 'tightened' : 'relaxed';
}

/** Patterns and multiples cannot be ordered cheaply: adding one tightens, removing relaxes. */
function compareOpaque(oldValue: unknown, newValue: unknown): Verdict | undefined {
  if (oldValue === newValue) return undefined;
  if (oldValue === undefined) return 'tightened';
  if (newValue === undefined) return 'relaxed';
  return 'changed';
}

function report(ctx: DiffContext, p: ResolvedPair, found: { key: string; verdict: Verdict | undefined }): void {
  if (found.verdict === undefined) return;
  const oldValue = asSchema(p.o.value)[found.key];
  const newValue = asSchema(p.n.value)[found.key];
  const show = (v: unknown) => (v === undefined ? 'none' : canonicalJson(v));
  const words = { tightened: 'tightened', relaxed: 'relaxed', changed: 'changed' }[found.verdict];
  emit(ctx, `${p.direction}-constraint-${found.verdict}`, {
    at: { uri: p.n.uri, pointer: joinPointer(p.n.pointer, found.key) },
    side: 'new',
    direction: p.direction,
    oldValue,
    newValue,
    message: `${describeValue(p.direction, p.label)}: ${found.key} ${words} from ${show(oldValue)} to ${show(newValue)}.`,
  });
}
