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
