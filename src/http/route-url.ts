import type { FastifyRequest } from 'fastify';
import { stateOf } from './pipeline/request-state.ts';

/**
 * The matched route's pattern (`/api/v2/users/:id`), or `undefined` when no route matched.
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
  const url = request.routeOptions.url;
  state.routeUrl = url ?? null;
  return url;
}
