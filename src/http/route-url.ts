import type { FastifyRequest } from 'fastify';
import { stateOf } from './pipeline/request-state.ts';

const kRouteOf = Symbol('versionary.routeOf');

type RouteFinder = (request: FastifyRequest) => string | undefined;

/** The config of a catch-all whose requests `find` routes further (a path the router missed). */
export function routedBy(find: RouteFinder): Record<symbol, unknown> {
  return { [kRouteOf]: find };
}

/** The route pattern the request reaches, kept in the state: `routeOptions` is rebuilt on every read. */
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
