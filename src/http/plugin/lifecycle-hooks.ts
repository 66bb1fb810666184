import type { FastifyInstance } from 'fastify';
import { VersionaryError } from '../../core/errors/index.ts';
import { rowOf, tableRefusal } from '../public-decision.ts';
import type { LifecycleSource, LifecycleVerdict } from '../../core/lifecycle/index.ts';
import { requestPipeline } from '../pipeline/request-pipeline.ts';
import { judgedVerdict, removalDecision } from '../removed-gate.ts';
import {
  decide,
  type Decision,
  type DecisionTable,
  type DecisionTableSource,
  type RequestFacts,
} from '../../core/rulebook/index.ts';
import { stateOf, type RuleDecision } from '../pipeline/request-state.ts';
import type { VersionedRequestHook } from '../versioned-api-options.ts';
import { isMethodAnswer } from '../versioned-api.ts';
import { methodsAt } from '../../core/rulebook/route-index.ts';
import { reportUsage, type ResolvedPluginOptions } from './options.ts';

/** The lifecycle's step: core's `decide` on a compiled table (the loop's), else the lifecycle's verdicts. */
export function lifecycleHookOf(
  app: FastifyInstance,
  o: ResolvedPluginOptions,
  lifecycle: LifecycleSource,
): VersionedRequestHook {
  return lifecycle.decisionTable
    ? rulebookHook(o, lifecycle, lifecycle.decisionTable)
    : liveLifecycleHook(app, { prefix: o.prefix, lifecycle, hook: lifecycleStep(o, lifecycle) });
}

/** Deprecation headers and usage on every call of a deprecated version or endpoint. */
function lifecycleStep(o: ResolvedPluginOptions, lifecycle: LifecycleSource): VersionedRequestHook {
  // Named: the pipeline lists it as the `lifecycle:lifecycle-headers` step.
  return function lifecycleHeaders({ request, reply, version, operation }) {
    const key = { version: version.name, method: operation.method, path: operation.path };
    const verdict = judgedVerdict(request, key) ?? lifecycle.verdict(key);
    // The few keys with per-client rules (a grant, a closing to new clients) ask the source
    // for this client's verdict; every other request goes on with the shared one, synchronously.
    if (verdict.perClient && lifecycle.clientVerdict)
      return Promise.resolve(lifecycle.clientVerdict(key, o.clientOf(request), verdict)).then(
        (own) => applyVerdict(o, { request, reply, key, verdict: own, shared: verdict }),
        (refusal: unknown) => {
          // The source refused this client (closed to new clients): the decision that answered.
          if (refusal instanceof VersionaryError) stateOf(request).decision = removalDecision(refusal);
          throw refusal;
        },
      );
    applyVerdict(o, { request, reply, key, verdict, shared: verdict });
  };
}

/** Record a deprecated call and send its headers; a removed one (past the client's own date too) is refused. */
function applyVerdict(
  o: ResolvedPluginOptions,
  c: Pick<Call, 'request' | 'reply'> & { key: VerdictKey; verdict: LifecycleVerdict; shared: LifecycleVerdict },
): void {
  const { request, reply, key, verdict } = c;
  const state = stateOf(request);
  // This client's verdict is final: the public headers of early answers must not be added to it.
  state.lifecycleJudged = true;
  state.lifecycleVerdict = verdict;
  if (c.shared.removed && !verdict.removed) state.decision = 'extended_access';
  if (!verdict.deprecated) return;
  reportUsage(o, request, { version: key.version, endpoint: `${key.method} ${key.path}` });
  state.deprecated = true;
  reply.headers(verdict.headers);
  if (verdict.removed) {
    state.refused = true;
    state.decision = removalDecision(verdict.removed);
    throw verdict.removed;
  }
}

const subscribed = new WeakMap<LifecycleSource, WeakSet<object>>();

/** The hook compiled only where the lifecycle has something to say, recompiled when it changes. */
function liveLifecycleHook(
  app: FastifyInstance,
  o: { prefix: string; lifecycle: LifecycleSource; hook: VersionedRequestHook },
): VersionedRequestHook {
  const { lifecycle, hook } = o;
  const unscheduled = lifecycle.unscheduled?.bind(lifecycle);
  if (!unscheduled || !lifecycle.onChange) return hook;
  // One subscription per source and server: invalidating clears every pipeline of the server.
  let servers = subscribed.get(lifecycle);
  if (!servers) subscribed.set(lifecycle, (servers = new WeakSet()));
  if (!servers.has(app.server)) {
    servers.add(app.server);
    const pipeline = requestPipeline(app, o.prefix);
    lifecycle.onChange(() => pipeline.invalidate());
  }
  return Object.assign(hook, { appliesTo: (key: VerdictKey) => !unscheduled(key) });
}

const noRoles: readonly string[] = Object.freeze([]);

type Call = Parameters<VersionedRequestHook>[0];

type VerdictKey = Parameters<LifecycleSource['verdict']>[0];

/** Core's `decide` on the compiled table for every call, once its caller is known (as nginx's Lua). */
function rulebookHook(
  o: ResolvedPluginOptions,
  lifecycle: LifecycleSource,
  tables: DecisionTableSource,
): VersionedRequestHook {
  /** Send the decision's headers; record a deprecated call; a refusal is its problem, thrown. */
  const apply = (c: { call: Call; table: DecisionTable; client: string | undefined }, decision: Decision): void => {
    const { request, reply, version, operation } = c.call;
    const state = stateOf(request);
    // This client's decision is final: the public headers of early answers must not be added to it.
    state.lifecycleJudged = true;
    if (decision.rule === 'extended_access') state.decision = 'extended_access';
    const refusal = decision.outcome === 'refuse' ? decision.rule : undefined;
    // A removal is usage of the removed subject (what a migration must still reach); a brownout or a
    // closing refuses before the call counts.
    if (decision.deprecated && (refusal === undefined || refusal === 'removed'))
      reportUsage(o, request, { version: version.name, endpoint: `${operation.method} ${operation.path}` });
    if (decision.deprecated) {
      state.deprecated = true;
      // Traces name the sunset and the replacement of the verdict the rows were sampled from; a client
      // served past the removal, its own date.
      const key = { version: version.name, method: operation.method, path: operation.path };
      const shared = lifecycle.verdict(key);
      const own =
        decision.rule === 'extended_access' && c.client !== undefined
          ? rowOf(c.table, { ...key, template: key.path })?.extendedAccess?.[c.client]?.until
          : undefined;
      state.lifecycleVerdict = own === undefined ? shared : { ...shared, sunsetAt: own, removed: undefined };
    }
    reply.headers(decision.headers);
    if (decision.outcome === 'allow') return;
    state.refused = true;
    state.decision = ruleDecisionOf(decision.rule);
    throw tableRefusal(tables, decision);
  };
  const settle = (call: Call, table: DecisionTable): void => {
    const client = o.clientOf(call.request);
    const facts = factsOf(o, call, client);
    // A method the route does not declare (its 405 route): the methods the table declares there, so
    // that the method rule answers before the brownouts, as core orders them.
    if (isMethodAnswer(call.request)) {
      const version = facts.versionSource === 'accept' ? '' : `/${facts.version!}`;
      const below = facts.path.slice(o.prefix.length + version.length) || '/';
      // None: no document declares the path (the forwarded catch-all's), judged by its version alone.
      const declared = methodsAt(table.routes[facts.version!] ?? [], below, 'none');
      if (declared !== undefined) facts.methods = declared;
    }
    const decision = decide(facts, table);
    // The 405 is the route's own answer (worded as on every path), with the headers of the rules before it.
    if (decision.outcome === 'refuse' && decision.rule === 'method') return void call.reply.headers(decision.headers);
    // Nearly every call of a current version: nothing to send, count or note (measured: touching the
    // request's state and reply for nothing cost more than the decision itself).
    const quiet = decision.outcome === 'allow' && !decision.deprecated && decision.rule === undefined;
    if (quiet && isEmpty(decision.headers)) return;
    apply({ call, table, client }, decision);
  };
  // Named: the pipeline lists it as the `lifecycle:rulebook` step.
  return function rulebook(call) {
    const table = tables.latest();
    if (table !== undefined) return settle(call, table);
    return tables.current().then((current) => settle(call, current));
  };
}

function factsOf(o: ResolvedPluginOptions, call: Call, client: string | undefined): RequestFacts {
  const { request, version, operation } = call;
  const facts: RequestFacts = {
    // The operation's own method (HEAD is GET's): the route already admitted the request's.
    method: operation.method,
    path: pathOf(request.url),
    version: version.name,
    versionSource: stateOf(request).versionFromAccept ? 'accept' : 'path',
    template: operation.path,
    now: o.clock.now(),
  };
  // Set rather than spread: the facts keep one shape, and no empty object is made per call.
  if (client !== undefined) facts.principal = { client, roles: noRoles };
  return facts;
}

function ruleDecisionOf(rule: Decision['rule']): RuleDecision | undefined {
  if (rule === 'brownout' || rule === 'closed_to_new_clients' || rule === 'extended_access') return rule;
  return rule === 'removed' || rule === 'element_removed' ? 'removed' : undefined;
}

function pathOf(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

function isEmpty(headers: Readonly<Record<string, string>>): boolean {
  for (const _ in headers) return false;
  return true;
}
