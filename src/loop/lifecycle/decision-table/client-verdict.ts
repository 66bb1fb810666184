import type { Clock } from '../../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import type { LifecycleSource, LifecycleVerdict } from '../../../core/lifecycle/index.ts';
import type { ProblemRow } from '../../../core/rulebook/index.ts';
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
