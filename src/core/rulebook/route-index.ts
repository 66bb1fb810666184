import type { DecisionTable, RouteRow } from './table.ts';

/** Each table's routes by `version method template`, built on first use (tables are immutable). */
const indexes = new WeakMap<DecisionTable, Map<string, RouteRow>>();

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
  if (index === undefined) {
    index = new Map();
    for (const [version, rows] of Object.entries(table.routes))
      for (const row of rows) index.set(`${version} ${row.method} ${row.template}`, row);
    indexes.set(table, index);
  }
  return index.get(`${key.version} ${ruleMethodOf(key.method)} ${key.template}`);
}
