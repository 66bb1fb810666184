import { allowOf } from './problems.ts';
import { routeRowOf, ruleMethodOf } from './route-index.ts';
import { headersAt, segmentAt } from './segments.ts';
import type {
  Decision,
  DecisionRule,
  DecisionTable,
  ProblemRow,
  RatePolicy,
  RequestFacts,
  RouteRow,
  RuleRow,
} from './table.ts';

/** One request rule: a pure decision over the request's facts and the compiled table. */
export type Rule = (facts: RequestFacts, table: DecisionTable) => Decision;

const allowed: Decision = Object.freeze({
  outcome: 'allow',
  headers: Object.freeze({}),
  deprecated: false,
}) as Decision;

function refuse(
  problem: ProblemRow,
  rule: DecisionRule,
  { deprecated = false, headers = {} }: { deprecated?: boolean; headers?: Record<string, string> } = {},
): Decision {
  return { outcome: 'refuse', headers, problem, rule, deprecated };
}

/** A problem of the table by key; a missing key is a compiler bug, answered as a plain 404. */
function problemOf(table: DecisionTable, key: string | undefined): ProblemRow {
  return (key === undefined ? undefined : table.problems[key]) ?? missingProblem;
}

const missingProblem: ProblemRow = {
  status: 404,
  headers: {},
  body: {
    type: '/problems/not-found',
    title: 'Not Found',
    status: 404,
    detail: 'No such resource.',
    code: 'NOT_FOUND',
  },
};

/**
 * Judge one subject (a version, an operation, an element) for a client at `now`: its own segments
 * (extended access) replace the shared ones; while everyone's segment allows, a closing in effect
 * refuses a client not allowed past it.
 */
export function judgeSubject(
  table: DecisionTable,
  subject: Pick<RuleRow, 'segments' | 'extendedAccess' | 'closings'>,
  facts: { client: string | undefined; now: number; deprecated: boolean },
): Decision {
  const { client, now, deprecated } = facts;
  const own = client === undefined ? undefined : subject.extendedAccess?.[client];
  const segment = segmentAt(own?.segments ?? subject.segments, now);
  const shared = own === undefined ? segment : segmentAt(subject.segments, now);
  const headers = headersAt(segment, now);
  if (segment.outcome === 'refuse')
    return refuse(problemOf(table, segment.problem), 'removed', { deprecated, headers });
  // Closings guard the subject while it is open to all: past its removal, only the clients granted
  // extended access are served, and that grant is the owner's word for them, closing or not.
  if (subject.closings && shared.outcome === 'allow')
    for (const closing of subject.closings)
      if (now >= closing.at && (client === undefined || !closing.allowed.includes(client)))
        return refuse(problemOf(table, closing.problem), 'closed_to_new_clients', { deprecated, headers });
  if (own && shared.outcome === 'refuse') return { outcome: 'allow', headers, deprecated, rule: 'extended_access' };
  return { outcome: 'allow', headers, deprecated };
}

function routeOf(facts: RequestFacts, table: DecisionTable): RouteRow | undefined {
  return facts.version === undefined || facts.template === undefined
    ? undefined
    : routeRowOf(table, { version: facts.version, method: facts.method, template: facts.template });
}

/** Unversioned or unknown version: 400 `VERSION_MISSING`, 404 `VERSION_UNKNOWN` naming it. */
export const versionRule: Rule = (facts, table) => {
  if (facts.version === undefined) return refuse(problemOf(table, 'version-missing'), 'version');
  if (table.versions.includes(facts.version)) return allowed;
  const problem = problemOf(table, facts.versionSource === 'accept' ? 'version-unknown-accept' : 'version-unknown');
  const detail = problem.body.detail.replace('{version}', facts.version);
  return refuse({ ...problem, body: { ...problem.body, detail } }, 'version');
};

/**
 * A client's minimum version, set once it has migrated so that it never slides back: its calls to
 * an older version are refused (410). A minimum the table does not know (since dropped) retires nothing.
 */
export const minimumVersionRule: Rule = (facts, table) => {
  const client = facts.principal?.client;
  if (client === undefined || facts.version === undefined) return allowed;
  const minimum = table.minimumVersions?.[client];
  if (minimum === undefined) return allowed;
  const asked = table.versions.indexOf(facts.version);
  const floor = table.versions.indexOf(minimum.version);
  if (asked === -1 || floor === -1 || asked >= floor) return allowed;
  return refuse(problemOf(table, minimum.problem), 'minimum_version');
};

/**
 * Whether some client's minimum version is after `version`: a data plane that refuses a removed
 * version before the caller is known waits for the caller instead, whose own minimum answers first.
 */
export function retiresSome(table: DecisionTable, version: string): boolean {
  const asked = table.versions.indexOf(version);
  if (asked === -1 || table.minimumVersions === undefined) return false;
  for (const client in table.minimumVersions)
    if (table.versions.indexOf(table.minimumVersions[client]!.version) > asked) return true;
  return false;
}

/** The lifecycle of the operation, or of the version for a path with no route. */
export const lifecycleRule: Rule = (facts, table) => {
  if (facts.version === undefined) return allowed;
  const route = routeOf(facts, table);
  const row = route?.row ?? table.versionRows[facts.version];
  if (row === undefined) return allowed;
  return judgeSubject(table, row, { client: facts.principal?.client, now: facts.now, deprecated: row.deprecated });
};

/**
 * The method: served only where the path's route declares it (HEAD with GET), so a method no
 * document names (`PROPFIND`) is never forwarded; OPTIONS is left to the data plane; TRACE never.
 */
export const methodRule: Rule = (facts, table) => {
  const declared = facts.methods;
  if (declared === undefined || facts.version === undefined) return allowed;
  const method = ruleMethodOf(facts.method);
  if (method === 'OPTIONS' || (method !== 'TRACE' && declared.includes(method))) return allowed;
  const problem = problemOf(table, 'method-not-allowed');
  const allow = allowOf(declared);
  const detail = problem.body.detail.replace('{method}', facts.method).replace('{allow}', allow);
  return refuse({ ...problem, headers: { ...problem.headers, allow }, body: { ...problem.body, detail } }, 'method');
};

/**
 * Deprecated parameters and fields the request uses, each judged as its own subject whose headers
 * replace the operation's; with several, the first refusal answers, else the first's headers.
 */
export const elementsRule: Rule = (facts, table) => {
  const route = routeOf(facts, table);
  if (route === undefined || route.elements.length === 0) return allowed;
  if (facts.parameters === undefined && facts.fields === undefined) return allowed;
  let first: Decision | undefined;
  for (const element of route.elements) {
    const used =
      element.kind === 'parameter'
        ? facts.parameters?.includes(element.parameter!)
        : facts.fields?.includes(element.name);
    if (!used) continue;
    const decision = judgeSubject(table, element, {
      client: facts.principal?.client,
      now: facts.now,
      deprecated: true,
    });
    if (decision.outcome === 'refuse')
      return { ...decision, rule: decision.rule === 'removed' ? 'element_removed' : decision.rule };
    first ??= decision;
  }
  return first ?? allowed;
};

/**
 * A brownout window in force on the operation (or the version, for a path with no route) for this
 * client, unless its extended access spares it: refused as the removal will be, with `retry-after`.
 */
export const brownoutRule: Rule = (facts, table) => {
  const route = routeOf(facts, table);
  const rows = route?.brownouts ?? (facts.version === undefined ? undefined : table.versionBrownouts?.[facts.version]);
  if (rows === undefined || rows.length === 0) return allowed;
  const client = facts.principal?.client;
  const { now } = facts;
  for (const b of rows) {
    if (now < b.startsAt || now >= b.endsAt) continue;
    if (b.clients && (client === undefined || !b.clients.includes(client))) continue;
    const spared = client === undefined ? undefined : b.spared?.[client];
    if (spared !== undefined && spared > now) continue;
    const problem = problemOf(table, b.problem);
    const retryAfter = String(Math.max(1, Math.ceil((b.endsAt - now) / 1000)));
    return refuse({ ...problem, headers: { ...problem.headers, 'retry-after': retryAfter } }, 'brownout', {
      deprecated: (route?.row ?? table.versionRows[facts.version!])?.deprecated ?? false,
    });
  }
  return allowed;
};

/**
 * The rate-limit policy of a request: the most generous of its principal's roles' (a role
 * without its own counts as the base), the base without a principal; none when limits are off.
 */
export function ratePolicyOf(
  facts: Pick<RequestFacts, 'principal'>,
  table: Pick<DecisionTable, 'policies'>,
): RatePolicy | undefined {
  const { base, roles } = table.policies;
  if (base === undefined) return undefined;
  let best: RatePolicy | undefined;
  for (const role of facts.principal?.roles ?? []) {
    const policy = roles[role] ?? base;
    if (best === undefined || policy.max > best.max) best = policy;
  }
  return best ?? base;
}

/**
 * The counter a principal's request counts against: one per client and policy. Every key of a
 * client with the same policy shares it, so minting keys does not multiply a client's budget; two
 * keys of one client whose roles give different policies (a read-only key beside a write key) have
 * a budget each and never drain one another. `client` is the credential's client (`cl_…`), else
 * the credential itself. Unauthenticated calls and failed credentials count per address instead.
 */
export function rateCounterKey(client: string, policy: { name: string }): string {
  return `client:${policy.name}:${client}`;
}
