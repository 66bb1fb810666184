import type { ApiVersion, EndpointSource } from '../../core/versions/index.ts';
import { endpointInOlderTerms } from './endpoint-document.ts';

// `query` is OpenAPI 3.2's QUERY operation, `x-query` the extension a 3.1 document names it by.
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query', 'x-query'];
const methodOf = (key: string) => (key === 'x-query' ? 'QUERY' : key.toUpperCase());

/**
 * A derived version's OpenAPI document: the newer version's own (its descriptions, parameters and
 * examples kept), with the older version's component schemas, only the operations the older
 * version routes, at their older paths and methods (a moved endpoint where it was, a removed one
 * back), their statuses, headers and query parameters by their older names, and paths relative
 * to the version base (the gateway serves each document with its own `servers`). It is what
 * `defineVersions` derives in-process, written into the document the upstream's team maintains.
 */
export function derivedDocument(options: {
  root: Record<string, unknown>;
  /** `/api/v2`: the newer document's paths may be written below it. */
  rootBase: string;
  version: ApiVersion;
  /** The root version, as the chain's plan knows it. */
  rootVersion: ApiVersion;
  /** By the derived version's operation id, the root's route that serves it and the changes on the way. */
  endpoints: ReadonlyMap<string, EndpointSource>;
}): Record<string, unknown> {
  const { version, rootBase } = options;
  const doc = structuredClone(options.root);
  const components = (doc.components ?? {}) as Record<string, unknown>;
  // The derived operations served by each of the root's routes (most by their own).
  const servedBy = new Map<string, ApiVersion['operations']>();
  for (const op of version.operations) {
    const route = options.endpoints.get(op.id)?.route;
    if (!route) continue;
    const key = `${route.method} ${route.path}`;
    servedBy.set(key, [...(servedBy.get(key) ?? []), op]);
  }
  const paths: Record<string, Record<string, unknown>> = {};
  const place = (route: { path: string; method: string }, operation: unknown, shared: Record<string, unknown>) => {
    const item = (paths[route.path] ??= { ...shared });
    item[route.method === 'QUERY' ? 'query' : route.method.toLowerCase()] = operation;
  };
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    const relative = path === rootBase ? '/' : path.startsWith(`${rootBase}/`) ? path.slice(rootBase.length) : path;
    const shared = Object.fromEntries(Object.entries(item ?? {}).filter(([key]) => !methods.includes(key)));
    for (const [key, value] of Object.entries(item ?? {})) {
      if (!methods.includes(key)) continue;
      for (const op of servedBy.get(`${methodOf(key)} ${relative}`) ?? []) {
        const moved = op.path !== relative;
        const operation = endpointInOlderTerms({
          operation: value as Record<string, unknown>,
          // A path's own parameters go with the operation to another path.
          shared: moved ? shared : {},
          id: op.id,
          source: options.endpoints.get(op.id)!,
          components,
        });
        place(op, operation, moved ? {} : shared);
      }
    }
  }
  for (const op of version.operations) {
    const source = options.endpoints.get(op.id);
    if (source?.removedIn === undefined) continue;
    place(op, goneOperation(op, source.removedIn), {});
  }
  const info = (doc.info ?? {}) as Record<string, unknown>;
  return {
    ...doc,
    info: { ...info, version: version.name },
    paths,
    components: { ...components, schemas: structuredClone(version.schemas) },
  };
}

/** An endpoint a newer version removed, as the older version documents it: answered 410. */
function goneOperation(op: ApiVersion['operations'][number], removedIn: string): Record<string, unknown> {
  const parameters = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  return {
    operationId: op.id,
    summary: op.summary,
    deprecated: true,
    ...(parameters.length > 0 ? { parameters } : {}),
    responses: {
      '410': {
        description: `Removed in ${removedIn}: the endpoint answers 410 (ENDPOINT_REMOVED).`,
        content: { 'application/problem+json': { schema: { type: 'object' } } },
      },
    },
  };
}
