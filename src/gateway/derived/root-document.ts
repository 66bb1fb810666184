import { refName } from '../../core/versions/index.ts';

const methods = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'QUERY'];

/**
 * What the root's document says that its operations as the versions read them do not: by route
 * (`GET /users/{id}`, below the version base), the response schemas it gives by range or default
 * (`2XX`, `default`), for an answer whose exact status it does not document (only a `$ref`
 * counts: migrations are per component); and the routes whose `requestBody` is `required: true`
 * (OpenAPI's default is optional). By route, not operation id: a derived operation can have an id
 * of its own (an `endpoint-removed` served by an `upstreamPath`), but names the route that serves it.
 */
export function rootDocumentFacts(
  document: Record<string, unknown>,
  rootBase: string,
): { ranges: Record<string, Record<string, string>>; requiredBodies: ReadonlySet<string> } {
  const ranges: Record<string, Record<string, string>> = {};
  const requiredBodies = new Set<string>();
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const [raw, item] of Object.entries(paths)) {
    const path = belowBase(raw, rootBase);
    for (const method of methods) {
      // QUERY: `query` in a 3.2 document, the `x-query` extension in a 3.1 one, as the versions read them.
      const op = (method === 'QUERY' ? (item?.query ?? item?.['x-query']) : item?.[method.toLowerCase()]) as
        DocumentOperation | undefined;
      if (!op || typeof op !== 'object') continue;
      const route = `${method} ${path}`;
      if (op.requestBody?.required === true) requiredBodies.add(route);
      for (const [key, response] of Object.entries(op.responses ?? {})) {
        if (!/^[1-5]XX$/i.test(key) && key !== 'default') continue;
        const content = response?.content;
        const type = Object.keys(content ?? {}).find((t) => /json/i.test(t));
        const name = type === undefined ? undefined : refName(content![type]?.schema?.$ref);
        if (name !== undefined) (ranges[route] ??= {})[key.toUpperCase()] = name;
      }
    }
  }
  return { ranges, requiredBodies };
}

interface DocumentOperation {
  requestBody?: { required?: unknown };
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: unknown } }> } | undefined>;
}

/** A document's path below the version base it may be written under (`/api/v2/users` → `/users`). */
export function belowBase(path: string, base: string): string {
  return path === base ? '/' : path.startsWith(`${base}/`) ? path.slice(base.length) : path;
}
