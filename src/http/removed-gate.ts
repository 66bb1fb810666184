import type { FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock/index.ts';
import type { LifecycleSource, LifecycleVerdict } from '../core/lifecycle/index.ts';
import { ErrorCode, type VersionaryError } from '../core/errors/index.ts';
import { minimumVersionRule } from '../core/rulebook/rules.ts';
import { retiresSome } from '../core/rulebook/index.ts';
import { judgePublic, tableErrorOf } from './public-decision.ts';
import { defineStep, stepKey } from './pipeline/step-definition.ts';
import { ruleMethod, type RouteDescription } from './pipeline/route-description.ts';
import { hasDeprecation, stateOf, type RuleDecision } from './pipeline/request-state.ts';

/** The one place that decides whether a version or endpoint is removed (`undefined`: version unknown). */
function knownVerdict(
  lifecycle: LifecycleSource,
  key: { version: string; method: string; path: string },
): LifecycleVerdict | undefined {
  if (lifecycle.versions && !lifecycle.versions().some((v) => v.name === key.version)) return undefined;
  return lifecycle.verdict(key);
}

/** The verdict the removed gate asked for this request's endpoint, if it did. */
export function judgedVerdict(request: FastifyRequest, key: { method: string; path: string }) {
  const judged = stateOf(request).verdict;
  return judged && judged.method === key.method && judged.path === key.path ? judged.verdict : undefined;
}

/** The gate's key: a path with no route names no endpoint, and is judged by its version alone. */
export function gateKeyOf(route: RouteDescription): { version: string; method: string; path: string } {
  if (route.url === undefined || route.template === undefined)
    return { version: route.version!, method: 'GET', path: '/' };
  return { version: route.version!, method: ruleMethod(route.method), path: route.template };
}

/** The decision a removal's problem stands for: a closing to new clients, or the removal itself. */
export function removalDecision(removed: VersionaryError): RuleDecision {
  return removed.code === ErrorCode.ClosedToNewClients ? 'closed_to_new_clients' : 'removed';
}

/** A removed version's answer on a path with no route; with a compiled table, core's `decide` answers. */
export function removedVersionOf(
  lifecycle: LifecycleSource,
  clock?: Clock,
): (name: string) => VersionaryError | undefined {
  const tables = lifecycle.decisionTable;
  const shared = (name: string) =>
    lifecycle.versions?.().some((v) => v.name === name)
      ? knownVerdict(lifecycle, { version: name, method: 'GET', path: '/' })?.removed
      : undefined;
  if (!tables || !clock) return shared;
  return (name) => {
    const judged = judgePublic(tables, clock, { version: name, method: 'GET', removal: false });
    // A table still compiling after a change: the runtime's verdict, the computation its rows sample.
    if (judged === undefined) return shared(name);
    const { decision } = judged;
    return decision.outcome === 'refuse' ? tables.errorOf(decision.problem) : undefined;
  };
}

/**
 * The 410 a caller's own minimum version answers on a path with no route (a method the path does
 * not declare, a path no document declares), as core's `decide` orders it: before the 405 or 404.
 * Asked only of a version the table retires for some client; OPTIONS never waits for a caller.
 */
export function retiredVersionOf(
  lifecycle: LifecycleSource,
  clock: Clock,
  clientOf: (request: FastifyRequest) => string | undefined,
): ((request: FastifyRequest, version: string) => VersionaryError | undefined) | undefined {
  const tables = lifecycle.decisionTable;
  if (!tables) return undefined;
  return (request, version) => {
    const table = tables.latest();
    if (table === undefined || request.method === 'OPTIONS' || !retiresSome(table, version)) return undefined;
    const client = clientOf(request);
    if (client === undefined) return undefined;
    const principal = { client, roles: [] as readonly string[] };
    const decision = minimumVersionRule(
      { method: request.method, path: '', version, now: clock.now(), principal },
      table,
    );
    return decision.outcome === 'refuse' ? tableErrorOf(tables, decision.problem) : undefined;
  };
}

/** What {@link removedGateStep} and the public lifecycle headers are made from. */
export interface RemovedGateOptions {
  lifecycle: LifecycleSource;
  prefix: string;
  /** The clock the compiled table's instants are compared with. */
  clock?: Clock;
  /** Told of each refused call, for usage (no credential has been read yet). */
  onRemovedCall?: (call: { version: string; endpoint: string }, request: FastifyRequest) => void;
}

export const removedGateKey = stepKey<RemovedGateOptions>('removed-gate');

/** What the lifecycle says of a request before its caller is known. */
interface PublicAnswer {
  headers: Readonly<Record<string, string>>;
  deprecated: boolean;
  /** The removal every caller gets, but one served past it (`perClient`). */
  refusal: VersionaryError | undefined;
  /** Some client may still be served (extended access past the sunset): the lifecycle step decides. */
  perClient: boolean;
  /** The verdict traces name (the one the table's rows were sampled from). */
  verdict: () => LifecycleVerdict;
}

/**
 * The lifecycle's answer before the caller is known: core's `decide` on a compiled table (the
 * loop's), else the lifecycle's verdicts (the plugin on a config, or a table still compiling after
 * a change: its rows sample that verdict). `removal` asks only whether the call is removed now: a
 * deprecated call is then decided once, by the lifecycle step.
 */
export function publicAnswer(
  options: Pick<RemovedGateOptions, 'lifecycle' | 'clock'>,
  at: { request: FastifyRequest; route: RouteDescription; removal: boolean },
): PublicAnswer | undefined {
  const { lifecycle, clock } = options;
  const tables = lifecycle.decisionTable;
  const key = gateKeyOf(at.route);
  const judged =
    tables && clock
      ? judgePublic(tables, clock, {
          ...key,
          template: at.route.url === undefined ? undefined : key.path,
          removal: at.removal,
        })
      : undefined;
  if (judged) {
    const { decision } = judged;
    // Closings and brownouts refuse by client: the lifecycle step decides them once the caller is known.
    const removed = decision.outcome === 'refuse' && decision.rule === 'removed';
    return {
      headers: decision.headers,
      deprecated: decision.deprecated,
      refusal: removed ? tableErrorOf(tables!, decision.problem) : undefined,
      perClient: judged.perClient,
      verdict: () => lifecycle.verdict(key),
    };
  }
  // The removed gate's verdict when it asked it; an answer refused before the gate asks here.
  let verdict = judgedVerdict(at.request, key);
  if (!verdict) {
    verdict = knownVerdict(lifecycle, key);
    if (!verdict) return undefined;
    // Kept for the lifecycle step of the same request: the verdict is asked once.
    stateOf(at.request).verdict = { method: key.method, path: key.path, verdict };
  }
  const known = verdict;
  return {
    headers: verdict.headers,
    deprecated: hasDeprecation(verdict.headers),
    refusal: verdict.removed,
    // Only a source that judges clients can serve one past the removal.
    perClient: verdict.perClient === true && (lifecycle.decisionTable ?? lifecycle.clientVerdict) !== undefined,
    verdict: () => known,
  };
}

/**
 * The `gate:removed-gate` step: a removed version or endpoint answers before any credential or
 * storage work, for every path under it but its OpenAPI document (readable for migration).
 */
export const removedGateStep = defineStep({
  needs: removedGateKey,
  name: 'removed-gate',
  thin: true,
  phase: 'gate',
  appliesTo: (route) => route.version !== undefined && !route.isDocument,
  create: (options) => (request, reply, route) => {
    // Only a removal matters here: a deprecated subject's headers are the lifecycle step's to send.
    const answer = publicAnswer(options, { request, route, removal: true });
    const error = answer?.refusal;
    if (!error) return;
    // A path with no route names no endpoint: no client is served past it, and no usage is recorded.
    const routed = route.url !== undefined;
    // Some client may still be served: the lifecycle step decides, once the credential is known; it
    // refuses every other client with this same problem.
    if (routed && answer.perClient) return void (stateOf(request).pendingRemoval = { headers: answer.headers, error });
    const key = gateKeyOf(route);
    if (routed) options.onRemovedCall?.({ version: key.version, endpoint: `${key.method} ${key.path}` }, request);
    const state = stateOf(request);
    if (answer.deprecated) {
      state.deprecated = true;
      state.verdict ??= { method: key.method, path: key.path, verdict: answer.verdict() };
    }
    state.refused = true;
    state.decision = removalDecision(error);
    reply.headers(answer.headers);
    throw error;
  },
});
