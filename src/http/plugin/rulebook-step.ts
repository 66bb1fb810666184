import type { FastifyReply, FastifyRequest } from 'fastify';
import { VersionaryError } from '../../core/errors/index.ts';
import { rowOf, tableErrorOf } from '../public-decision.ts';
import type { LifecycleSource } from '../../core/lifecycle/index.ts';
import {
  decide,
  type Decision,
  type DecisionTable,
  type DecisionTableSource,
  type RequestFacts,
} from '../../core/rulebook/index.ts';
import type { ApiVersion, OperationSpec } from '../../core/versions/index.ts';
import { stateOf, type RuleDecision } from '../pipeline/request-state.ts';
import type { VersionedRequestHook } from '../versioned-api-options.ts';
import { reportUsage, type ResolvedPluginOptions } from './options.ts';

const noRoles: readonly string[] = Object.freeze([]);

interface Call {
  request: FastifyRequest;
  reply: FastifyReply;
  version: ApiVersion;
  operation: OperationSpec;
}

/** What every call of one plane decides against. */
interface Sources {
  o: ResolvedPluginOptions;
  lifecycle: LifecycleSource;
  tables: DecisionTableSource;
}

/**
 * The rulebook step of a data plane with a compiled table: every call of a version's routes, once
 * its caller is known, is decided by core's `decide` (the rules nginx's Lua mirror runs). Only the
 * first call after a change that nothing compiled yet waits for the table.
 */
export function rulebookHook(
  o: ResolvedPluginOptions,
  lifecycle: LifecycleSource,
  tables: DecisionTableSource,
): VersionedRequestHook {
  const sources: Sources = { o, lifecycle, tables };
  // Named: the pipeline lists it as the `lifecycle:rulebook` step.
  return function rulebook(call) {
    const table = tables.latest();
    if (table !== undefined) return settle(sources, call, table);
    return tables.current().then((current) => settle(sources, call, current));
  };
}

/** Decide the call on `table` and apply the decision; nearly every call of a current version stops at the check. */
function settle(sources: Sources, call: Call, table: DecisionTable): void {
  const { o } = sources;
  const client = o.clientOf(call.request);
  const decision = decide(factsOf(o, call, client), table);
  // Nearly every call of a current version: nothing to send, count or note (measured: touching the
  // request's state and reply for nothing cost more than the decision itself).
  if (decision.outcome === 'allow' && !decision.deprecated && decision.rule === undefined && isEmpty(decision.headers))
    return;
  applyDecision(sources, { call, table, client }, decision);
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

function applyDecision(
  sources: Sources,
  c: { call: Call; table: DecisionTable; client: string | undefined },
  decision: Decision,
): void {
  const { o } = sources;
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
    const shared = sources.lifecycle.verdict(key);
    const own = decision.rule === 'extended_access' ? ownDate(c.table, key, c.client) : undefined;
    state.lifecycleVerdict = own === undefined ? shared : { ...shared, sunsetAt: own, removed: undefined };
  }
  reply.headers(decision.headers);
  if (decision.outcome === 'allow') return;
  state.refused = true;
  state.decision = ruleDecisionOf(decision.rule);
  throw errorOf(sources.tables, decision);
}

function ruleDecisionOf(rule: Decision['rule']): RuleDecision | undefined {
  if (rule === 'brownout' || rule === 'closed_to_new_clients' || rule === 'extended_access') return rule;
  return rule === 'removed' || rule === 'element_removed' ? 'removed' : undefined;
}

/** The error the refusal's problem was rendered from, with the headers the rule filled in (`retry-after`, `allow`). */
function errorOf(tables: DecisionTableSource, decision: Decision & { outcome: 'refuse' }): VersionaryError {
  const { problem } = decision;
  const error = tableErrorOf(tables, problem);
  if (Object.keys(problem.headers).length === 0) return error;
  return new VersionaryError({
    code: error.code,
    detail: problem.body.detail,
    extensions: error.extensions,
    headers: { ...error.headers, ...problem.headers },
  });
}

function pathOf(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

/** The date a client's extended access to an operation (or its version) ends. */
function ownDate(
  table: DecisionTable,
  key: { version: string; method: string; path: string },
  client: string | undefined,
): number | undefined {
  if (client === undefined) return undefined;
  return rowOf(table, { version: key.version, method: key.method, template: key.path })?.extendedAccess?.[client]
    ?.until;
}

function isEmpty(headers: Readonly<Record<string, string>>): boolean {
  for (const _ in headers) return false;
  return true;
}
