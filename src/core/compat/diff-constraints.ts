import { emit, type DiffContext, describeValue, type ResolvedPair } from './diff-context.ts';
import { canonicalJson } from './equivalence.ts';
import { joinPointer } from './json-pointer.ts';
import { asSchema } from './schema-model.ts';

type Verdict = 'tightened' | 'relaxed' | 'changed';

/** Upper bounds: a smaller value accepts less. */
const UPPER = ['maxLength', 'maxItems', 'maxProperties', 'maxContains'] as const;
/** Lower bounds: a larger value accepts less. */
const LOWER = ['minLength', 'minItems', 'minProperties', 'minContains'] as const;

/**
 * Patterns that match every string: an empty pattern, or `.*` in its unanchored spellings. Such a
 * pattern is no pattern, so replacing it with a real one adds a restriction.
 */
const MATCH_ALL = new Set(['', '.*', '^.*', '.*$', '[\\s\\S]*', '^[\\s\\S]*$']);

/**
 * Compare validation keywords. Tightening a request bound breaks clients; loosening a response
 * bound may hand clients values they never saw.
 */
export function diffConstraints(ctx: DiffContext, p: ResolvedPair): void {
  const os = asSchema(p.o.value);
  const ns = asSchema(p.n.value);
  for (const key of UPPER) report(ctx, p, { key, verdict: compareBound(os[key], ns[key], -1) });
  for (const key of LOWER) report(ctx, p, { key, verdict: compareBound(os[key], ns[key], 1) });
  reportRange(ctx, p, { inclusive: 'maximum', exclusive: 'exclusiveMaximum', sign: -1 });
  reportRange(ctx, p, { inclusive: 'minimum', exclusive: 'exclusiveMinimum', sign: 1 });
  report(ctx, p, { key: 'pattern', verdict: compareOpaque(patternOf(os), patternOf(ns)) });
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

interface Limit {
  value: number;
  exclusive: boolean;
  key: string;
}

/** The numeric bound of one side, after normalising (only the binding keyword is left). */
function limitOf(schema: Record<string, unknown>, keys: { inclusive: string; exclusive: string }): Limit | undefined {
  const ex = schema[keys.exclusive];
  if (typeof ex === 'number') return { value: ex, exclusive: true, key: keys.exclusive };
  const inc = schema[keys.inclusive];
  return typeof inc === 'number' ? { value: inc, exclusive: false, key: keys.inclusive } : undefined;
}

/**
 * `minimum`/`exclusiveMinimum` (and the maximum pair) are one bound: `minimum: 0` to
 * `exclusiveMinimum: 0` tightens it by excluding 0, whatever the OpenAPI version spelled it.
 */
function reportRange(
  ctx: DiffContext,
  p: ResolvedPair,
  keys: { inclusive: string; exclusive: string; sign: number },
): void {
  const o = limitOf(asSchema(p.o.value), keys);
  const n = limitOf(asSchema(p.n.value), keys);
  if (o?.value === n?.value && o?.exclusive === n?.exclusive) return;
  let verdict: Verdict;
  if (o === undefined) verdict = 'tightened';
  else if (n === undefined) verdict = 'relaxed';
  else if (o.value !== n.value) verdict = (n.value - o.value) * keys.sign > 0 ? 'tightened' : 'relaxed';
  else verdict = n.exclusive ? 'tightened' : 'relaxed';
  const show = (l: Limit | undefined) => (l === undefined ? 'none' : `${l.key} ${l.value}`);
  emit(ctx, `${p.direction}-constraint-${verdict}`, {
    at: { uri: p.n.uri, pointer: joinPointer(p.n.pointer, (n ?? (o as Limit)).key) },
    direction: p.direction,
    oldValue: o?.value,
    newValue: n?.value,
    message: `${describeValue(p.direction, p.label)}: bound ${verdict} from ${show(o)} to ${show(n)}.`,
  });
}

/** The pattern of a schema, or undefined when it has none or one that matches every string. */
function patternOf(schema: Record<string, unknown>): unknown {
  return typeof schema.pattern === 'string' && MATCH_ALL.has(schema.pattern) ? undefined : schema.pattern;
}

function compareFlag(oldValue: unknown, newValue: unknown): Verdict | undefined {
  const o = oldValue === true;
  const n = newValue === true;
  if (o === n) return undefined;
  return n ? 'tightened' : 'relaxed';
}

/**
 * Patterns and multiples cannot be ordered cheaply: adding one tightens, removing relaxes, and
 * only a change between two real ones is undecidable.
 */
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
  // A pattern reads as written (`^\s*$`), not JSON-escaped (`"^\\s*$"`).
  const show = (v: unknown) =>
    v === undefined ? 'none' : typeof v === 'string' && !v.includes('`') ? `\`${v}\`` : canonicalJson(v);
  emit(ctx, `${p.direction}-constraint-${found.verdict}`, {
    at: { uri: p.n.uri, pointer: joinPointer(p.n.pointer, found.key) },
    direction: p.direction,
    oldValue,
    newValue,
    message: `${describeValue(p.direction, p.label)}: ${found.key} ${found.verdict} from ${show(oldValue)} to ${show(newValue)}.`,
  });
}
