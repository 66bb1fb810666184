import type { ApiScope } from '../api-scope.ts';

/** What a route is, decided once per route pattern: every step reads it instead of parsing the URL. */
export interface RouteDescription {
  /** The route pattern (`/api/v2/users/:id`), or `undefined` for a path no route matched. */
  readonly url: string | undefined;
  readonly method: string;
  /** A method that may carry a body the service reads (Fastify reads none on GET and HEAD). */
  readonly hasBody: boolean;
  readonly api: boolean;
  readonly management: boolean;
  /** The version segment (`v2`), for a path under the API prefix that names one. */
  readonly version: string | undefined;
  /** The path after the version, as OpenAPI spells it (`/users/{id}`): the lifecycle's endpoint key. */
  readonly template: string | undefined;
  /** The version's own OpenAPI document (it stays readable for migration). */
  readonly isDocument: boolean;
}

/** The description of a route pattern, or of a path with no route (`url` undefined, judged by its raw path). */
export function describeRoute(
  scope: ApiScope,
  route: { url: string | undefined; path: string; method: string },
): RouteDescription {
  const path = route.url ?? route.path;
  const api = route.url === undefined ? undefined : scope.routeOf(route.url);
  return Object.freeze({
    url: route.url,
    method: route.method,
    hasBody: !bodiless.has(route.method),
    api: scope.isApi(path),
    management: scope.isManagement(path),
    version: api?.version ?? scope.versionOf(path),
    template: api?.template,
    isDocument: api?.isDocument ?? false,
  });
}

// Fastify reads no body for these: a body step never applies to them.
const bodiless = new Set(['GET', 'HEAD']);

/** The method the lifecycle's rules judge a call by: HEAD is GET's, or it would pass a rule GET is refused by. */
export function ruleMethod(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}
