import type { FastifyReply, FastifyRequest } from 'fastify';
import { canonicalPath, originFormOf } from '../core/rulebook/canonical-path.ts';
import { allowOf, methodNotAllowedProblem, notServedProblem } from '../core/rulebook/problems.ts';
import { methodsAt, templateAt } from '../core/rulebook/route-index.ts';
import { stateOf } from './pipeline/request-state.ts';
import type { RequestStep } from './pipeline/step-definition.ts';
import { sendProblem } from './problem.ts';
import { routedBy, routeUrlOf } from './route-url.ts';
import { methodAnswerWhen } from './versioned-api.ts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => void;

/** A forwarded version's documented routes, as its catch-all finds them. */
export interface DocumentedRoutes {
  /** Each method's templates (HEAD beside GET), each with its route's pattern and handler. */
  byMethod: Map<string, Map<string, { url: string; handler: Handler }>>;
  /** Every documented operation, the version's own document (GET) included: core's `methodsAt` reads them. */
  operations: Array<{ method: string; template: string }>;
}

/** Whether a version forwards undocumented paths: when listed, and never a derived one (only what its changes translate). */
export function forwardsUndocumented(
  forward: { forwardUndocumented?: readonly string[]; derived?: Record<string, unknown> },
  version: string,
): boolean {
  return forward.derived?.[version] === undefined && forward.forwardUndocumented?.includes(version) === true;
}

/**
 * A forwarded version's catch-all (`<base>/*`), for what the router matched to no documented path
 * (it bounds a parameter's length, `maxParamLength`; core's route index does not): a path a
 * template matches is that template's route (`routedBy`: its steps judge it, its handler forwards
 * it); a documented path with another method is the 405 with its `Allow`; any other path a 404,
 * unless the version forwards undocumented paths (`undocumented`), counted as `METHOD /*`.
 */
export function createCatchAll(o: {
  base: string;
  version: string;
  routes: DocumentedRoutes;
  /** The handler of undocumented paths, when the version forwards them. */
  undocumented?: Handler | undefined;
}): { config: Record<string | symbol, unknown>; guard: RequestStep; handler: Handler } {
  const { base, routes } = o;
  const belowOf = (request: FastifyRequest): string | undefined => {
    const canonical = canonicalPath(request.url);
    // A refused target never goes on: the strict-target step answers it.
    if ('refused' in canonical) return undefined;
    const { path } = canonical;
    return path === base || path.startsWith(`${base}/`) ? path.slice(base.length) || '/' : undefined;
  };
  const declaredAt = (request: FastifyRequest) => {
    const below = belowOf(request);
    return below === undefined ? undefined : methodsAt(routes.operations, below, 'none');
  };
  const find = (request: FastifyRequest) => {
    const byTemplate = routes.byMethod.get(request.method);
    const below = byTemplate && belowOf(request);
    const template = below === undefined ? undefined : templateAt(byTemplate!.keys(), below);
    return template === undefined ? undefined : byTemplate!.get(template)!.url;
  };
  const urls = new Map<string, Handler>();
  for (const byTemplate of routes.byMethod.values())
    for (const { url, handler } of byTemplate.values()) urls.set(url, handler);
  const guard: RequestStep = {
    name: 'method-not-allowed',
    phase: 'lifecycle',
    run: (request) => {
      const declared = declaredAt(request);
      if (declared) throw methodNotAllowedProblem({ method: request.method, allow: allowOf(declared) });
    },
  };
  const handler: Handler = (request, reply) => {
    const url = routeUrlOf(request);
    const routed = url === undefined ? undefined : urls.get(url);
    if (routed) return routed(request, reply);
    if (o.undocumented) return o.undocumented(request, reply);
    // No operation was called: nothing to count as usage.
    stateOf(request).refused = true;
    const path = pathOf(originFormOf(request.url));
    sendProblem(reply, notServedProblem({ path, version: o.version }));
  };
  // Not forwarding undocumented paths, what stays here goes nowhere (a 405, a 404): it needs no
  // more than `read`, whatever the method. A request the index routes needs what its route needs.
  const url = `${base}/*`;
  const answers = o.undocumented ? {} : methodAnswerWhen((request) => routeUrlOf(request) === url);
  return { config: { ...routedBy(find), ...answers }, guard, handler };
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
