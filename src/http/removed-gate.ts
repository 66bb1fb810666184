import type { FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock/index.ts';
import type { LifecycleSource, LifecycleVerdict } from '../core/lifecycle/index.ts';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { decide, type RequestFacts } from '../core/rulebook/index.ts';
import { methodsAt } from '../core/rulebook/route-index.ts';
import {
  judgePublic,
  tableErrorOf,
  tableNow,
  tableRefusal,
  whenReady,
  type PublicDecision,
} from './public-decision.ts';
import { defineStep, stepKey } from './pipeline/step-definition.ts';
import { ruleMethod, type RouteDescription } from './pipeline/route-description.ts';
import { hasDeprecation, stateOf, type RuleDecision } from './pipeline/request-state.ts';

/** The verdict the removed gate asked for this request's endpoint, if it did. */
export function judgedVerdict(request: FastifyRequest, key: { method: string; path: string }) {
  const judged = stateOf(request).verdict;
  return judged && judged.method === key.method && judged.path === key.path ? judged.verdict : undefined;
}

type GateKey = { version: string; method: string; path: string };

/** The gate's key: a path with no route names no endpoint, and is judged by its version alone. */
export function gateKeyOf(route: RouteDescription): GateKey {
  if (route.url === undefined || route.template === undefined)
    return { version: route.version!, method: 'GET', path: '/' };
  return { version: route.version!, method: ruleMethod(route.method), path: route.template };
}

/** The decision a removal's problem stands for: a closing to new clients, or the removal itself. */
export function removalDecision(removed: VersionaryError): RuleDecision {
  return removed.code === ErrorCode.ClosedToNewClients ? 'closed_to_new_clients' : 'removed';
}

/** An answer now, or once the table compiling after a change is there. */
type Pending<T> = T | Promise<T>;

/**
 * A removed version's answer on a path with no route, from the lifecycle's verdicts: where a table
 * is compiled, the not-found handler asks `decide` first ({@link unroutedDecisionOf}), and this
 * answers only what the table cannot say (a version it does not know, a compilation that failed).
 */
export function removedVersionOf(lifecycle: LifecycleSource): (name: string) => VersionaryError | undefined {
  return (name) =>
    lifecycle.versions?.().some((v) => v.name === name)
      ? lifecycle.verdict({ version: name, method: 'GET', path: '/' }).removed
      : undefined;
}

/** Where a request no route serves stands: its version, and its path below it. */
export interface UnroutedKey {
  version: string;
  below: string;
  source: 'path' | 'accept';
}

/**
 * Core's `decide` for a request no route serves (a method the path does not declare, a path no
 * document declares), with its caller, as core orders the rules: a client's minimum version, the
 * version's removal, the method, its brownouts. `undefined`: the table cannot say (no table, a
 * version it does not know, a compilation that failed); `null`: nothing refuses but the method,
 * whose 405 (or OPTIONS's 204), like the 404, is the not-found handler's own answer.
 */
export function unroutedDecisionOf(
  lifecycle: LifecycleSource,
  clock: Clock,
  clientOf: (request: FastifyRequest) => string | undefined,
): ((request: FastifyRequest, key: UnroutedKey) => Pending<VersionaryError | null | undefined>) | undefined {
  const tables = lifecycle.decisionTable;
  if (!tables) return undefined;
  return (request, key) =>
    whenReady(tableNow(tables), (table) => {
      if (table === undefined || !table.versions.includes(key.version)) return undefined;
      const facts: RequestFacts = {
        method: request.method,
        path: request.url.split('?')[0]!,
        version: key.version,
        versionSource: key.source,
        now: clock.now(),
      };
      const methods = methodsAt(table.routes[key.version] ?? [], key.below, 'none');
      if (methods !== undefined) facts.methods = methods;
      // OPTIONS asks for no credential: judged without a caller, as every data plane judges it.
      const client = request.method === 'OPTIONS' ? undefined : clientOf(request);
      if (client !== undefined) facts.principal = { client, roles: [] };
      const decision = decide(facts, table);
      if (decision.outcome === 'allow' || decision.rule === 'method') return null;
      return tableRefusal(tables, decision, decision.headers);
    });
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
  /** Some client's minimum version retires the version: its own 410 answers first, once it is known. */
  retiring: boolean;
  /** The verdict traces name (the one the table's rows were sampled from). */
  verdict: () => LifecycleVerdict;
}

/**
 * The lifecycle's answer before the caller is known: core's `decide` on a compiled table (the
 * loop's; one compiling after a change is waited for), else the lifecycle's verdicts (the plugin on
 * a config). `removal` asks only whether the call is removed now: a deprecated call is then decided
 * once, by the lifecycle step.
 */
export function publicAnswer(
  options: Pick<RemovedGateOptions, 'lifecycle' | 'clock'>,
  at: { request: FastifyRequest; route: RouteDescription; removal: boolean },
): Pending<PublicAnswer | undefined> {
  const { lifecycle, clock } = options;
  const tables = lifecycle.decisionTable;
  const key = gateKeyOf(at.route);
  if (!tables || !clock) return verdictAnswer(lifecycle, at.request, key);
  const template = at.route.url === undefined ? undefined : key.path;
  return whenReady(judgePublic(tables, clock, { ...key, template, removal: at.removal }), (judged) =>
    judged === undefined ? verdictAnswer(lifecycle, at.request, key) : tableAnswer(lifecycle, key, judged),
  );
}

function tableAnswer(lifecycle: LifecycleSource, key: GateKey, judged: PublicDecision): PublicAnswer {
  const { decision } = judged;
  // Closings and brownouts refuse by client: the lifecycle step decides them once the caller is known.
  const removed = decision.outcome === 'refuse' && decision.rule === 'removed';
  return {
    headers: decision.headers,
    deprecated: decision.deprecated,
    refusal: removed ? tableErrorOf(lifecycle.decisionTable!, decision.problem) : undefined,
    perClient: judged.perClient,
    retiring: judged.retiring,
    verdict: () => lifecycle.verdict(key),
  };
}

function verdictAnswer(lifecycle: LifecycleSource, request: FastifyRequest, key: GateKey): PublicAnswer | undefined {
  // The removed gate's verdict when it asked it; an answer refused before the gate asks here.
  let verdict = judgedVerdict(request, key);
  if (!verdict) {
    // A version the lifecycle does not know has no verdict.
    if (lifecycle.versions && !lifecycle.versions().some((v) => v.name === key.version)) return undefined;
    verdict = lifecycle.verdict(key);
    // Kept for the lifecycle step of the same request: the verdict is asked once.
    stateOf(request).verdict = { method: key.method, path: key.path, verdict };
  }
  const known = verdict;
  return {
    headers: verdict.headers,
    deprecated: hasDeprecation(verdict.headers),
    refusal: verdict.removed,
    // Only a source that judges clients can serve one past the removal.
    perClient: verdict.perClient === true && (lifecycle.decisionTable ?? lifecycle.clientVerdict) !== undefined,
    retiring: false,
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
  create: (options) => (request, reply, route) =>
    // Only a removal matters here: a deprecated subject's headers are the lifecycle step's to send.
    whenReady(publicAnswer(options, { request, route, removal: true }), (answer) => {
      const error = answer?.refusal;
      if (!error) return;
      // A path with no route names no endpoint: no client is served past it, and no usage is
      // recorded; but a client whose minimum version retires the version gets its own 410 from the
      // not-found handler, once the caller is known.
      const routed = route.url !== undefined;
      if (!routed && answer.retiring) return;
      // Some client may still be served: the lifecycle step decides, once the credential is known; it
      // refuses every other client with this same problem.
      if (routed && answer.perClient)
        return void (stateOf(request).pendingRemoval = { headers: answer.headers, error });
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
    }),
});
