import type { DecisionTable, RouteRow } from './table.ts';

/** Each table's routes by version, method and template, built on first use (tables are immutable). */
type RouteIndex = Map<string, Map<string, Map<string, RouteRow>>>;
const indexes = new WeakMap<DecisionTable, RouteIndex>();

/** The rules' method: HEAD is judged as GET. */
export function ruleMethodOf(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}

/** The operation row of a version's route, or `undefined` when the table has none. */
export function routeRowOf(
  table: DecisionTable,
  key: { version: string; method: string; template: string },
): RouteRow | undefined {
  let index = indexes.get(table);
  if (index === undefined) indexes.set(table, (index = indexOf(table)));
  // Nested maps: no key string is built per request.
  return index.get(key.version)?.get(ruleMethodOf(key.method))?.get(key.template);
}

function indexOf(table: DecisionTable): RouteIndex {
  const index: RouteIndex = new Map();
  for (const [version, rows] of Object.entries(table.routes)) {
    const byMethod = new Map<string, Map<string, RouteRow>>();
    for (const row of rows) {
      let byTemplate = byMethod.get(row.method);
      if (byTemplate === undefined) byMethod.set(row.method, (byTemplate = new Map()));
      byTemplate.set(row.template, row);
    }
    index.set(version, byMethod);
  }
  return index;
}

/** Whether a path below the version matches a route template: `{name}` is one non-empty segment. */
function templateMatches(template: string, below: string): boolean {
  const want = template.split('/');
  const got = below.split('/');
  return want.length === got.length && want.every((part, i) => (isParameter(part) ? got[i] !== '' : part === got[i]));
}

/**
 * The template a path below the version reaches: `{name}` is one non-empty segment of any length,
 * and a literal segment beats a parameter, as routers prefer `/users/me` over `/users/{id}`.
 */
export function templateAt(templates: Iterable<string>, below: string): string | undefined {
  let best: string | undefined;
  for (const template of templates)
    if (templateMatches(template, below) && (best === undefined || moreLiteral(template, best))) best = template;
  return best;
}

function moreLiteral(a: string, b: string): boolean {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < x.length; i++) {
    const px = isParameter(x[i]!);
    if (px !== isParameter(y[i] ?? '')) return !px;
  }
  return false;
}

function isParameter(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}

/**
 * `RequestFacts.methods` of a path below the version; for a path no template matches, every method
 * of the version (a forwarding catch-all's) or, with `unmatched: 'none'`, `undefined`.
 */
export function methodsAt(
  operations: Iterable<{ method: string; template: string }>,
  below: string,
  unmatched: 'version' | 'none',
): string[] | undefined {
  const at: string[] = [];
  const all: string[] = [];
  for (const op of operations) {
    const method = op.method.toUpperCase();
    if (method === 'HEAD') continue;
    if (!all.includes(method)) all.push(method);
    if (templateMatches(op.template, below) && !at.includes(method)) at.push(method);
  }
  if (at.length > 0) return at;
  return unmatched === 'version' ? all : undefined;
}
