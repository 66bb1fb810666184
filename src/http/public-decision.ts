import type { Clock } from '../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import {
  decide,
  retiresSome,
  type Decision,
  type DecisionTable,
  type DecisionTableSource,
  type ProblemRow,
  type RuleRow,
} from '../core/rulebook/index.ts';
import { routeRowOf } from '../core/rulebook/route-index.ts';

/** A request's key before its caller is known: its version, and its operation when a route matched. */
export interface PublicKey {
  version: string;
  method: string;
  /** The route's template below the version; absent for a path with no route (the version's row judges it). */
  template?: string | undefined;
}

/** The table's decision for a caller not known yet, and the row it read. */
export interface PublicDecision {
  decision: Decision;
  /**
   * Some client has its own view of the subject (extended access, or a minimum version after it):
   * its answer waits for the caller.
   */
  perClient: boolean;
}

/**
 * Core's `decide` for a request before its caller is known (the removed gate, the public headers of
 * early answers, a path with no route): the answer every unidentified caller gets. `undefined` when
 * the table is not current yet (a change still compiling) or does not know the version: the caller
 * then falls back to the lifecycle's verdict, the computation the table's rows are sampled from.
 */
export function publicDecision(tables: DecisionTableSource, clock: Clock, key: PublicKey): PublicDecision | undefined {
  const table = tables.latest();
  if (table === undefined || !table.versions.includes(key.version)) return undefined;
  const facts = {
    method: key.method,
    path: '',
    version: key.version,
    versionSource: 'path' as const,
    ...(key.template === undefined ? {} : { template: key.template }),
    now: clock.now(),
  };
  const decision = decide(facts, table);
  const row = rowOf(table, key);
  const perClient = (row !== undefined && row.extendedAccess !== undefined) || retiresSome(table, key.version);
  return { decision, perClient };
}

function rowOf(table: DecisionTable, key: PublicKey): RuleRow | undefined {
  const route = key.template === undefined ? undefined : routeRowOf(table, { ...key, template: key.template });
  return route?.row ?? table.versionRows[key.version];
}

/** The error a table's problem was rendered from: what a Fastify data plane throws to answer it. */
export function tableErrorOf(tables: DecisionTableSource, problem: ProblemRow): VersionaryError {
  return (
    tables.errorOf(problem) ??
    // Every problem of a table is rendered from an error by the compiler: a miss is a bug, said as one.
    new VersionaryError({ code: ErrorCode.Internal, detail: 'The decision table names a problem it has no error for.' })
  );
}
