import { judgeSubject, problemOf } from './judge-row.ts';
import { allowOf, brownoutRetryAfter } from './problems.ts';
import { ruleMethodOf } from './route-index.ts';
import { routeRowOf } from './route-index.ts';
import type { Decision, DecisionTable, ProblemRow, RatePolicy, RequestFacts, RouteRow } from './table.ts';

/** One request rule: a pure decision over the request's facts and the compiled table. */
export type Rule = (facts: RequestFacts, table: DecisionTable) => Decision;

const allowed: Decision = Object.freeze({
  outcome: 'allow',
  headers: Object.freeze({}),
  deprecated: false,
}) as Decision;

/** The operation a request reached, when it reached one. */
function routeOf(facts: RequestFacts, table: DecisionTable): RouteRow | undefined {
  return facts.version === undefined || facts.template === undefined
    ? undefined
    : routeRowOf(table, { version: facts.version, method: facts.method, template: facts.template });
}

/** Unversioned or unknown version: 400 `VERSION_MISSING`, 404 `VERSION_UNKNOWN` naming it. */
export const versionRule: Rule = (facts, table) => {
  if (facts.version === undefined)
    return {
      outcome: 'refuse',
      headers: {},
      problem: problemOf(table, 'version-missing'),
      rule: 'version',
      deprecated: false,
    };
  if (table.versions.includes(facts.version)) return allowed;
  const key = facts.versionSource === 'accept' ? 'version-unknown-accept' : 'version-unknown';
  return {
    outcome: 'refuse',
    headers: {},
    problem: naming(problemOf(table, key), facts.version),
    rule: 'version',
    deprecated: false,
  };
};

function naming(problem: ProblemRow, version: string): ProblemRow {
  const detail = problem.body.detail.replace('{version}', version);
  return { ...problem, body: { ...problem.body, detail } };
}

/**
 * The lifecycle of the version and operation: removed (or served past its sunset to a client with
 * extended access), closed to new clients, else allowed with the deprecation headers. A path with
 * no route is judged by the version's own row.
 */
export const lifecycleRule: Rule = (facts, table) => {
  if (facts.version === undefined) return allowed;
  const route = routeOf(facts, table);
  const row = route?.row ?? table.versionRows[facts.version];
  if (row === undefined) return allowed;
  return judgeSubject(table, row, {
    client: facts.principal?.client,
    now: facts.now,
    deprecated: row.deprecated,
  });
};

/**
 * The method: served only where the route the path reaches declares an operation for it (HEAD
 * with GET), so a method no document names (`PROPFIND`, `PURGE`) is never forwarded; OPTIONS is
 * let through for the data plane to answer (204 with `Allow`); TRACE never. Else 405 with `Allow`
 * (see `allowOf`). Data-driven: a method is known because a route declares it (QUERY included).
 */
export const methodRule: Rule = (facts, table) => {
  const declared = facts.methods;
  if (declared === undefined || facts.version === undefined) return allowed;
  const method = ruleMethodOf(facts.method);
  if (method === 'OPTIONS' || (method !== 'TRACE' && declared.includes(method))) return allowed;
  const problem = problemOf(table, 'method-not-allowed');
  const allow = allowOf(declared);
  const fill = (text: string) => text.replace('{method}', facts.method).replace('{allow}', allow);
  return {
    outcome: 'refuse',
    headers: {},
    problem: {
      ...problem,
      headers: { ...problem.headers, allow },
      body: { ...problem.body, detail: fill(problem.body.detail) },
    },
    rule: 'method',
    deprecated: false,
  };
};

/**
 * Deprecated parameters and fields the request uses: each judged as its own subject, whose
 * headers (the operation's merged with the element's) replace the operation's; past its sunset,
 * the 400 `ELEMENT_REMOVED`. With several used, the first refusal answers, else the first's headers.
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
    if (decision.outcome === 'refuse') return { ...decision, rule: ruleOfElement(decision) };
    first ??= decision;
  }
  return first ?? allowed;
};

function ruleOfElement(decision: Decision & { outcome: 'refuse' }) {
  return decision.rule === 'removed' ? ('element_removed' as const) : decision.rule;
}

/**
 * A brownout window in force on the operation (on a path with no route, the version's), for this client (a targeted one names it), that
 * its extended access does not spare: refused as the removal will be, with `retry-after`.
 */
export const brownoutRule: Rule = (facts, table) => {
  const route = routeOf(facts, table);
  // A path with no route: the version's whole-version brownouts, as its removal would reach it.
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
    const retryAfter = brownoutRetryAfter(b.endsAt, now);
    return {
      outcome: 'refuse',
      headers: {},
      problem: { ...problem, headers: { ...problem.headers, 'retry-after': retryAfter } },
      rule: 'brownout',
      deprecated: (route?.row ?? table.versionRows[facts.version!])?.deprecated ?? false,
    };
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
  const held = facts.principal?.roles;
  if (held === undefined || held.length === 0) return base;
  let best: RatePolicy | undefined;
  for (const role of held) {
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
