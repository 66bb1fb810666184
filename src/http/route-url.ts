import type { FastifyRequest } from 'fastify';

const kRouteUrl = Symbol('versionary.routeUrl');
type Remembering = FastifyRequest & { [kRouteUrl]?: string | null };

/**
 * The matched route's pattern (`/api/v2/users/:id`), or `undefined` when no route matched.
 * Fastify 5's `request.routeOptions` builds a fresh twelve-member object on every read, and half
 * a dozen hooks (authorization, rate limits, the removed-version gate, brownouts, metrics) ask
 * for the pattern on every request: it is read once and remembered on the request.
 */
export function routeUrlOf(request: FastifyRequest): string | undefined {
  // A handler may hand the request to the not-found route (`reply.callNotFound()`) after an earlier
  // hook asked: `is404` reads the current route, so that move is never hidden by the memo.
  if (request.is404) return undefined;
  const remembered = (request as Remembering)[kRouteUrl];
  if (remembered !== undefined) return remembered ?? undefined;
  const url = request.routeOptions.url;
  (request as Remembering)[kRouteUrl] = url ?? null;
  return url;
}
