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
import { segmentAt } from '../core/rulebook/segments.ts';

/** A request's key before its caller is known. */
export interface PublicKey {
  version: string;
  method: string;
  /** Absent for a path with no route (the version's row judges it). */
  template?: string | undefined;
}

/** The table's decision for a caller not known yet, and the row it read. */
export interface PublicDecision {
  decision: Decision;
  /** Some client has its own view of the subject: its answer waits for the caller. */
  perClient: boolean;
  /** Some client's minimum version retires this version: that client's own 410 answers first. */
  retiring: boolean;
}

/** `f` of a value that may still be coming: at once when it is here (nearly every call: no promise made). */
export function whenReady<T, U>(value: T | Promise<T>, f: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/**
 * The table now; while state moved and it compiles, the table once compiled, as the rulebook step
 * waits for it (the rules have one representation); `undefined` if that compilation failed.
 */
export function tableNow(tables: DecisionTableSource): DecisionTable | Promise<DecisionTable | undefined> {
  return tables.latest() ?? tables.current().catch(() => undefined);
}

/**
 * Core's `decide` before the caller is known; `undefined` when the table cannot say (a version it
 * does not know, or no table). With `removal`, only a refusal in force matters (a deprecated call
 * is decided once, by the rulebook step).
 */
export function judgePublic(
  tables: DecisionTableSource,
  clock: Clock,
  key: PublicKey & { removal: boolean },
): PublicDecision | undefined | Promise<PublicDecision | undefined> {
  return whenReady(tableNow(tables), (table) => (table === undefined ? undefined : judgeOn(table, clock, key)));
}

function judgeOn(
  table: DecisionTable,
  clock: Clock,
  key: PublicKey & { removal: boolean },
): PublicDecision | undefined {
  const matters = key.removal ? refusesNow : mayRefuseOrMark;
  if (!table.versions.includes(key.version)) return undefined;
  const now = clock.now();
  const row = rowOf(table, key);
  // Nearly every call: a subject that refuses nobody now (no removal in force) and has nothing to
  // say to a caller not known yet. Only a subject that might is decided in full.
  if (row !== undefined && !matters(row, now)) return quiet;
  const facts = {
    method: key.method,
    path: '',
    version: key.version,
    versionSource: 'path' as const,
    ...(key.template === undefined ? {} : { template: key.template }),
    now,
  };
  // A client with its own row (extended access), or one whose minimum version retires this
  // version (its own 410 answers first), is decided once the caller is known.
  const retiring = retiresSome(table, key.version);
  const perClient = (row !== undefined && row.extendedAccess !== undefined) || retiring;
  return { decision: decide(facts, table), perClient, retiring };
}

const quiet: PublicDecision = Object.freeze({
  decision: Object.freeze({ outcome: 'allow', headers: Object.freeze({}), deprecated: false }) as Decision,
  perClient: false,
  retiring: false,
});

function refusesNow(row: RuleRow, now: number): boolean {
  return segmentAt(row.segments, now).outcome === 'refuse';
}

function mayRefuseOrMark(row: RuleRow, now: number): boolean {
  const current = segmentAt(row.segments, now);
  if (current.outcome === 'refuse') return true;
  for (const _ in current.headers) return true;
  return false;
}

export function rowOf(table: DecisionTable, key: PublicKey): RuleRow | undefined {
  if (key.template !== undefined) {
    const route = routeRowOf(table, { version: key.version, method: key.method, template: key.template });
    if (route !== undefined) return route.row;
  }
  return table.versionRows[key.version];
}

/** The error a table's problem was rendered from: what a Fastify data plane throws to answer it. */
export function tableErrorOf(tables: DecisionTableSource, problem: ProblemRow): VersionaryError {
  return (
    tables.errorOf(problem) ??
    // Every problem of a table is rendered from an error by the compiler: a miss is a bug, said as one.
    new VersionaryError({ code: ErrorCode.Internal, detail: 'The decision table names a problem it has no error for.' })
  );
}

/**
 * The error a refusal's problem was rendered from, with what the rule filled in: its detail (`{version}`,
 * `{method}`) and headers (`retry-after`, `allow`), over `headers` (the decision's own, where the caller
 * sends them too). All else the error carries stays, its field `errors` included.
 */
export function tableRefusal(
  tables: DecisionTableSource,
  decision: Decision & { outcome: 'refuse' },
  headers: Readonly<Record<string, string>> = {},
): VersionaryError {
  const { problem } = decision;
  const error = tableErrorOf(tables, problem);
  const { code, detail, errors, extensions } = error;
  const filled = { ...headers, ...problem.headers };
  if (Object.keys(filled).length === 0 && problem.body.detail === detail) return error;
  return new VersionaryError({
    code,
    detail: problem.body.detail,
    errors,
    extensions,
    headers: { ...headers, ...error.headers, ...problem.headers },
  });
}
