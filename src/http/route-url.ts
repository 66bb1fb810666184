import type { FastifyRequest } from 'fastify';
import { stateOf } from './pipeline/request-state.ts';

/** The route config member of a route whose requests an index routes further (see {@link routedBy}). */
const kRouteOf = Symbol('versionary.routeOf');

type RouteFinder = (request: FastifyRequest) => string | undefined;

/**
 * The route config of a catch-all whose requests are routed further by an index: `find` names the
 * route pattern a request reaches (`/api/v2/users/:id`), or `undefined` to leave it the catch-all's.
 * Every step, the pipeline's plan and the handler then read the request as that route's
 * ({@link routeUrlOf}): a forwarded version's catch-all finds a documented path the router missed
 * (a parameter longer than the router's bound) by core's route index.
 */
export function routedBy(find: RouteFinder): Record<symbol, unknown> {
  return { [kRouteOf]: find };
}

/**
 * The route pattern the request reaches (`/api/v2/users/:id`), or `undefined` when no route matched:
 * the router's match, or the route an index found below a catch-all ({@link routedBy}).
 * Fastify 5's `request.routeOptions` builds a fresh twelve-member object on every read, and
 * several steps (authorization, rate limits, the removed-version gate, brownouts, metrics) ask
 * for the pattern on every request: it is read once and kept in the request state.
 */
export function routeUrlOf(request: FastifyRequest): string | undefined {
  // A handler may hand the request to the not-found route (`reply.callNotFound()`) after an earlier
  // step asked: `is404` reads the current route, so that move is never hidden by the memo.
  if (request.is404) return undefined;
  const state = stateOf(request);
  const remembered = state.routeUrl;
  if (remembered !== undefined) return remembered ?? undefined;
  const route = request.routeOptions;
  const find = (route.config as unknown as Record<symbol, RouteFinder | undefined> | undefined)?.[kRouteOf];
  const url = find?.(request) ?? route.url;
  state.routeUrl = url ?? null;
  return url;
}
