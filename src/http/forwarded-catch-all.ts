import type { FastifyReply, FastifyRequest } from 'fastify';
import { canonicalPath, originFormOf } from '../core/rulebook/canonical-path.ts';
import { allowOf, methodNotAllowedProblem, notServedProblem } from '../core/rulebook/problems.ts';
import { methodsAt, templateAt } from '../core/rulebook/route-index.ts';
import { pathOf } from './forwarder.ts';
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

/**
 * Whether a forwarded version passes on the paths its document does not declare: only when the
 * operator says so (`forwardUndocumented`), and never a derived version, which forwards only what
 * its changes translate.
 */
export function forwardsUndocumented(
  forward: { forwardUndocumented?: readonly string[]; derived?: Record<string, unknown> },
  version: string,
): boolean {
  return forward.derived?.[version] === undefined && forward.forwardUndocumented?.includes(version) === true;
}

/** Register one documented route's methods, for the catch-all to find. */
export function addDocumentedRoute(
  routes: DocumentedRoutes,
  route: { template: string; url: string; methods: readonly string[]; handler: Handler },
): void {
  for (const method of route.methods) {
    let byTemplate = routes.byMethod.get(method);
    if (!byTemplate) routes.byMethod.set(method, (byTemplate = new Map()));
    byTemplate.set(route.template, { url: route.url, handler: route.handler });
  }
}

/**
 * A forwarded version's catch-all (`<base>/*`): the route of every request the router matched to
 * no documented path there. Its operation is found by core's route index on the canonical path,
 * where a parameter has any length (the router bounds one, `maxParamLength`):
 *
 * - a path a template matches, with a method declared there, is that template's route: the
 *   request's route pattern is the template's (`routedBy`), so its steps judge it (removal,
 *   extended access, closings, brownouts, deprecation headers, deprecated parameters, usage per
 *   operation) and its handler forwards it;
 * - a documented path asked with another method is the 405 with the path's `Allow` (OPTIONS is
 *   the not-found handler's 204, as on every documented path);
 * - any other path is no document's: a 404 problem, never forwarded, unless the version forwards
 *   undocumented paths (`undocumented`, `forwardUndocumented`), which then go upstream under the
 *   version's verdict and count as `METHOD /*`.
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
    sendProblem(reply, notServedProblem({ method: request.method, path, version: o.version, allowed: [] }));
  };
  // Not forwarding undocumented paths, what stays here goes nowhere (a 405, a 404):
  // reading it needs no more than `read`, whatever the method, as on the service's 405 routes. A
  // request the index routes is its template's, and needs what that route needs.
  const url = `${base}/*`;
  const answers = o.undocumented ? {} : methodAnswerWhen((request) => routeUrlOf(request) === url);
  return { config: { ...routedBy(find), ...answers }, guard, handler };
}
