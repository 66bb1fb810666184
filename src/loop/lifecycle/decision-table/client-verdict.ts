import type { Clock } from '../../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import type { ElementDeprecation, LifecycleSource, LifecycleVerdict } from '../../../core/lifecycle/index.ts';
import type { DecisionTable, ElementRow, ProblemRow } from '../../../core/rulebook/index.ts';
import { judgeSubject } from '../../../core/rulebook/judge-row.ts';
import { routeRowOf } from '../../../core/rulebook/route-index.ts';
import type { DecisionTables } from './tables.ts';

/**
 * The per-client rules of a Fastify data plane, decided as every data plane decides them: core's
 * `judgeSubject` on the compiled table's row (a client's extended access, with its own `Sunset`
 * and its own date; a closing to new clients, with the clients allowed past it). The lifecycle
 * step asks it only for the few keys whose shared verdict is `perClient`; every other request
 * goes on with the shared verdict, which is the same computation the table's rows are sampled from.
 */
export function tableClientVerdict(
  tables: DecisionTables,
  clock: Clock,
): NonNullable<LifecycleSource['clientVerdict']> {
  return async (key, clientId, shared) => {
    const table = await tables.current();
    const route = routeRowOf(table, { version: key.version, method: key.method, template: key.path });
    const row = route?.row ?? table.versionRows[key.version];
    if (row === undefined) return shared;
    const decision = judgeSubject(table, row, { client: clientId, now: clock.now(), deprecated: row.deprecated });
    if (decision.outcome === 'refuse') {
      const error = errorOf(tables, decision.problem);
      // Closed to new clients: this client's answer is the 403, thrown as the lifecycle step expects.
      if (decision.rule === 'closed_to_new_clients') throw error;
      return { ...withoutRemoval(shared), headers: decision.headers, removed: error };
    }
    const own = clientId === undefined ? undefined : row.extendedAccess?.[clientId];
    if (own === undefined) return shared;
    // Extended access: the client's own headers and date, served past the public removal.
    return { ...withoutRemoval(shared), headers: decision.headers, sunsetAt: own.until };
  };
}

/**
 * A request's deprecated elements as this client sees them, decided on the table's element rows by
 * core's `judgeSubject`: closed to a client that had not used it before the closing (the 403,
 * thrown), or, past its sunset, served to a client with extended access until its own date (given
 * as the element's `sunsetAt`, from which the element's headers are worded). The others as they are.
 */
export function tableClientElements(
  tables: DecisionTables,
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
        throw errorOf(tables, decision.problem);
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

function withoutRemoval(verdict: LifecycleVerdict): LifecycleVerdict {
  const { removed: _removed, ...rest } = verdict;
  return rest;
}

function errorOf(tables: DecisionTables, problem: ProblemRow): VersionaryError {
  const error = tables.errorOf(problem);
  if (error) return error;
  // Every problem of a table is rendered from an error by the compiler: a miss is a bug, said as one.
  return new VersionaryError({
    code: ErrorCode.Internal,
    detail: 'The decision table names a problem it has no error for.',
  });
}
