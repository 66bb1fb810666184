import type { Clock } from '../../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import type { ElementDeprecation, LifecycleSource } from '../../../core/lifecycle/index.ts';
import type { DecisionTable, DecisionTableSource, ElementRow } from '../../../core/rulebook/index.ts';
import { judgeSubject } from '../../../core/rulebook/rules.ts';

/** A request's deprecated elements as this client sees them, judged on the table's rows (a closing throws). */
export function tableClientElements(
  tables: DecisionTableSource,
  clock: Clock,
): NonNullable<LifecycleSource['clientElements']> {
  return async (used, clientId) => {
    const table = await tables.current();
    const now = clock.now();
    const own: ElementDeprecation[] = [];
    for (const element of used) {
      const row = elementRowOf(table, element);
      if (row === undefined) {
        own.push(element);
        continue;
      }
      const decision = judgeSubject(table, row, { client: clientId, now, deprecated: true });
      if (decision.outcome === 'refuse' && decision.rule === 'closed_to_new_clients')
        // Every problem of a table is rendered from an error by the compiler: a miss is a bug, said as one.
        throw (
          tables.errorOf(decision.problem) ??
          new VersionaryError({
            code: ErrorCode.Internal,
            detail: 'The decision table names a problem it has no error for.',
          })
        );
      const until = clientId === undefined ? undefined : row.extendedAccess?.[clientId]?.until;
      own.push(
        decision.outcome === 'allow' && until !== undefined && now > element.sunsetAt
          ? { ...element, sunsetAt: until }
          : element,
      );
    }
    return own;
  };
}

// Each table's element rows by version and name: an element's closings and extended access are
// the same on every operation that carries it.
const elementIndexes = new WeakMap<DecisionTable, Map<string, ElementRow>>();

function elementRowOf(table: DecisionTable, element: ElementDeprecation): ElementRow | undefined {
  let index = elementIndexes.get(table);
  if (index === undefined) {
    index = new Map();
    for (const [version, routes] of Object.entries(table.routes))
      for (const route of routes)
        for (const row of route.elements)
          if (!index.has(`${version} ${row.name}`)) index.set(`${version} ${row.name}`, row);
    elementIndexes.set(table, index);
  }
  return index.get(`${element.version} ${element.element}`);
}
