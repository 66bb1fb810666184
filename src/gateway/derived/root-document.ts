import { refName } from '../../core/versions/index.ts';

const methods = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * By route (`GET /users/{id}`, below the version base), the response schemas a document gives by
 * range or default (`2XX`, `default`), for an answer whose exact status it does not document.
 * Only a `$ref` counts: migrations are per component.
 */
export function rangeResponses(
  document: Record<string, unknown>,
  rootBase: string,
): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const { route, op } of operationsOf(document, rootBase))
    for (const [key, response] of Object.entries(op.responses ?? {})) {
      if (!/^[1-5]XX$/i.test(key) && key !== 'default') continue;
      const content = (response as { content?: Record<string, { schema?: { $ref?: unknown } }> } | undefined)?.content;
      const type = Object.keys(content ?? {}).find((t) => /json/i.test(t));
      const name = type === undefined ? undefined : refName(content![type]?.schema?.$ref);
      if (name !== undefined) (out[route] ??= {})[key.toUpperCase()] = name;
    }
  return out;
}

/** The ids of the operations whose `requestBody` is `required: true` (OpenAPI's default is optional). */
export function requiredBodies(document: Record<string, unknown>, rootBase: string): ReadonlySet<string> {
  const out = new Set<string>();
  for (const { id, op } of operationsOf(document, rootBase))
    if ((op.requestBody as { required?: unknown } | undefined)?.required === true) out.add(id);
  return out;
}

interface DocumentOperation {
  operationId?: unknown;
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

/** A document's path below the version base it may be written under (`/api/v2/users` → `/users`). */
export function belowBase(path: string, base: string): string {
  return path === base ? '/' : path.startsWith(`${base}/`) ? path.slice(base.length) : path;
}

/** Each operation of a document with its route and its id, as the versions read from documents name it. */
function* operationsOf(document: Record<string, unknown>, rootBase: string) {
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const [raw, item] of Object.entries(paths)) {
    const path = belowBase(raw, rootBase);
    for (const method of methods) {
      const op = item?.[method] as DocumentOperation | undefined;
      if (!op || typeof op !== 'object') continue;
      const route = `${method.toUpperCase()} ${path}`;
      const id = typeof op.operationId === 'string' && op.operationId.length > 0 ? op.operationId : route;
      yield { id, route, op };
    }
  }
}
