import type { FastifyRequest } from 'fastify';
import { createApiScope } from '../../http/api-scope.ts';
import { routeUrlOf } from '../../http/route-url.ts';
import { isMethodAnswer } from '../../http/versioned-api.ts';
import type { Role } from '../../kernel/ports/principal.ts';

/**
 * The role rule of an API under `prefix`, decided from the matched route's pattern, never the raw URL:
 * the router decodes `%61dmin` and routes absolute-form targets, so a string test could be walked around.
 */
export function createRequiredRole(prefix: string): (request: FastifyRequest) => Role | undefined {
  const scope = createApiScope(prefix);
  return (request) => {
    const route = routeUrlOf(request);
    if (route === undefined) return undefined;
    // The MCP endpoint takes any valid credential: each of its tools answers for the caller's own
    // client, and those for every client (usage) refuse a key without the admin role.
    if (route === `${scope.management}/mcp`) return 'read';
    if (scope.isManagement(route) || route === '/metrics') return 'admin';
    const api = scope.routeOf(route);
    // OPTIONS asks for no credential (a preflight carries none), as the gateway and nginx answer it.
    if (!api || api.isDocument || route === `${scope.prefix}/${api.version}` || request.method === 'OPTIONS')
      return undefined;
    // QUERY is safe: reading with a body needs no more than reading.
    return ['GET', 'HEAD', 'QUERY'].includes(request.method) || isMethodAnswer(request) ? 'read' : 'write';
  };
}
