import type { FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock/index.ts';
import type { LifecycleSource, LifecycleVerdict } from '../core/lifecycle/index.ts';
import { ErrorCode, type VersionaryError } from '../core/errors/index.ts';
import { publicDecision, publicRemoval, tableErrorOf } from './public-decision.ts';
import type { RequestStep } from './pipeline/request-pipeline.ts';
import { defineStep, stepKey } from './pipeline/step-definition.ts';
import { ruleMethod, type RouteDescription } from './pipeline/route-description.ts';
import { hasDeprecation, stateOf, type RuleDecision } from './pipeline/request-state.ts';

/** The one place that decides whether a version or endpoint is removed (`undefined`: version unknown). */
export function knownVerdict(
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
    const judged = publicDecision(tables, clock, { version: name, method: 'GET' });
    // A table still compiling after a change: the runtime's verdict, the computation its rows sample.
    if (judged === undefined) return shared(name);
    const { decision } = judged;
    return decision.outcome === 'refuse' ? tables.errorOf(decision.problem) : undefined;
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
  create: (options) => {
    const tables = options.lifecycle.decisionTable;
    const { clock } = options;
    const shared = verdictGate(options);
    if (!tables || !clock) return shared;
    // With a compiled table (the loop's): core's `decide`, for a caller not known yet.
    return (request, reply, route) => {
      const routed = route.url !== undefined;
      const key = gateKeyOf(route);
      // Only a removal matters here: a deprecated subject's headers are the rulebook step's to send.
      const judged = publicRemoval(tables, clock, { ...key, template: routed ? key.path : undefined });
      if (judged === undefined) return shared(request, reply, route);
      const { decision } = judged;
      // Closings and brownouts refuse by client: the rulebook step decides them once the caller is known.
      if (decision.outcome === 'allow' || decision.rule !== 'removed') return;
      const error = tableErrorOf(tables, decision.problem);
      // Some client may still be served (extended access past the sunset): the rulebook step decides.
      if (routed && judged.perClient)
        return void (stateOf(request).pendingRemoval = { headers: decision.headers, error });
      if (routed) options.onRemovedCall?.({ version: key.version, endpoint: `${key.method} ${key.path}` }, request);
      const state = stateOf(request);
      if (decision.deprecated) {
        state.deprecated = true;
        // Traces name the sunset and replacement of the verdict the row was sampled from.
        state.lifecycleVerdict = options.lifecycle.verdict(key);
      }
      state.refused = true;
      state.decision = 'removed';
      reply.headers(decision.headers);
      throw error;
    };
  },
});

/** The gate on the lifecycle's verdicts, for a lifecycle without a compiled table (the plugin on a config). */
function verdictGate(options: RemovedGateOptions): RequestStep['run'] {
  return (request, reply, route) => {
    const routed = route.url !== undefined;
    // A path with no route names no endpoint: the version's own verdict answers, and no usage is recorded.
    const key = gateKeyOf(route);
    const verdict = knownVerdict(options.lifecycle, key);
    if (!verdict) return;
    // Kept for the lifecycle step of the same request: the verdict is asked once.
    stateOf(request).verdict = { method: key.method, path: key.path, verdict };
    if (!verdict.removed) return;
    // Some client may still be served (a grant past the sunset): the lifecycle step decides,
    // once the credential is known; it refuses every other client with this same problem.
    if (routed && verdict.perClient && (options.lifecycle.decisionTable ?? options.lifecycle.clientVerdict))
      return void (stateOf(request).pendingRemoval = { headers: verdict.headers, error: verdict.removed });
    if (routed) options.onRemovedCall?.({ version: key.version, endpoint: `${key.method} ${key.path}` }, request);
    const state = stateOf(request);
    if (hasDeprecation(verdict.headers)) state.deprecated = true;
    state.refused = true;
    state.decision = removalDecision(verdict.removed);
    reply.headers(verdict.headers);
    throw verdict.removed;
  };
}
