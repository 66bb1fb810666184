import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import type { OperationSpec } from '../core/versions/index.ts';
import { originFormOf, targetUndecodable, undecodableTargetProblem } from '../core/rulebook/canonical-path.ts';
import { forwardDerived } from './derived-forward.ts';
import type { DerivedVersionRoute, ForwardOptions } from './forward-options.ts';
import { createUpstreamHeaders, headersOfList, type HeaderList } from './forward-headers.ts';
import { sendProblem } from './problem.ts';
import { createResponseChecks } from './response-check.ts';
import { callUpstream, upstreamFailed } from './upstream-call.ts';

/** The handler of a version's routes: `routed` is the version's base path (`/api/v2`), and nothing outside it goes upstream. */
export function createForwarder(
  options: ForwardOptions & {
    pool: Dispatcher;
    host: string;
    vendor: string;
    derivedRoute?: DerivedVersionRoute | undefined;
  },
  routed: string,
): (request: FastifyRequest, reply: FastifyReply, operation?: OperationSpec) => void {
  const within = `${routed}/`;
  const listOf = createUpstreamHeaders({
    host: options.host,
    underscores: options.underscoresInHeaders === true,
    ...(options.withheldHeaders ? { withheld: options.withheldHeaders } : {}),
    ...(options.setHeaders ? { set: options.setHeaders } : {}),
    ...(options.forwardedHeaders ? { forwarded: options.forwardedHeaders } : {}),
  });
  const hook = options.requestHeaders;
  const requestHeaders = hook ? (request: FastifyRequest) => hook(headersOfList(listOf(request)), request) : listOf;
  const { refuse, derivedRoute: derived } = options;
  const checks = derived ? createResponseChecks() : undefined;
  return (request, reply, operation) => {
    if (refuse) return sendProblem(reply, refuse());
    // The last word that nothing outside the version goes upstream (the strict-target step came
    // first). An absolute-form target goes in origin form: its authority is not the upstream's.
    const url = request.url[0] === '/' ? request.url : originFormOf(request.url);
    const target = pathOf(url);
    if (target !== routed && !target.startsWith(within))
      return sendProblem(
        reply,
        new VersionaryError({ code: ErrorCode.MalformedRequest, detail: 'The request path is not canonical.' }),
      );
    // A stray `%` or a Latin-1 escape such as `%E9` is no target an upstream framework decodes
    // alike: a 400 problem.
    if (targetUndecodable(url)) return sendProblem(reply, undecodableTargetProblem());
    if (derived && operation && checks) {
      const call = { request, reply, route: derived, operation, pool: options.pool, url, routed, checks };
      const headers = headersOfList(requestHeaders(request) as HeaderList);
      return void forwardDerived({ ...call, headers, vendor: options.vendor }).catch((error: Error) =>
        upstreamFailed(reply, error),
      );
    }
    callUpstream(options.pool, reply, { path: url, headers: requestHeaders(request) });
  };
}

/**
 * Characters a URL parser keeps as they are in a path: a path of these alone, with no dot segment
 * and no leading `//`, is its own `pathname`; any other goes through `new URL()`, as an upstream's would.
 */
export const plainPath = /^[\w\-.~!$&'()*+,;=:@/]*$/;

/** The path a URL parser reads in an origin-form target; parsing is skipped for a plain one (nearly every request). */
export function pathOf(url: string): string {
  const end = url.indexOf('?');
  const path = end === -1 ? url : url.slice(0, end);
  if (path[0] === '/' && path[1] !== '/' && plainPath.test(path) && !path.includes('/.')) return path;
  return new URL(url, 'http://upstream').pathname;
}
