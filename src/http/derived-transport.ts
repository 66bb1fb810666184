import type { FastifyRequest } from 'fastify';
import type { EndpointSource, MigrationContext, OperationSpec } from '../core/versions/index.ts';
import type { Headers } from './forward-headers.ts';

/**
 * The target of a derived version's call at its root version, below the version base: the
 * route's path (moved or served elsewhere) with the call's own parameter segments, and the query
 * with each renamed parameter under the root's name. `target` is the call's, below its version
 * base (`/users/1?limit=5`).
 */
export function upstreamTarget(endpoint: EndpointSource, operation: OperationSpec, target: string): string {
  const { path, query: sent, marked } = splitTarget(target);
  let query = sent;
  const renames = endpoint.steps.flatMap((s) => s.query);
  if (query !== '' && renames.length > 0)
    query = query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const raw = eq === -1 ? pair : pair.slice(0, eq);
        const key = decoded(raw, true) ?? raw;
        let name = key;
        // Oldest step first: a name renamed twice goes up under the newest.
        for (const r of renames) if (name === r.previousName) name = r.name;
        return name === key ? pair : encodeURIComponent(name) + (eq === -1 ? '' : pair.slice(eq));
      })
      .join('&');
  const route = endpoint.route!;
  const upstreamPath =
    route.path === operation.path ? path : withSegments(route.path, rawParameters(operation.path, path));
  return query === '' && !marked ? upstreamPath : `${upstreamPath}?${query}`;
}

/** The call's headers as the root version names them (a copy, when a rename applies). */
export function headersUp(endpoint: EndpointSource, headers: Headers): Headers {
  const renames = endpoint.steps.flatMap((s) => s.requestHeaders);
  if (renames.length === 0) return headers;
  const out: Headers = { ...headers };
  for (const rename of renames) moveHeader(out, rename.previousName.toLowerCase(), rename.name.toLowerCase());
  return out;
}

/** The status the derived version answers for the upstream's, each version's change undone, newest first. */
export function statusDown(endpoint: EndpointSource, status: number): number {
  let out = status;
  for (let i = endpoint.steps.length - 1; i >= 0; i--)
    out = endpoint.steps[i]!.statuses.find((s) => s.status === out)?.previousStatus ?? out;
  return out;
}

/** The upstream's response headers renamed, in place, as the derived version names them. */
export function headersDown(endpoint: EndpointSource, headers: Headers): void {
  for (let i = endpoint.steps.length - 1; i >= 0; i--)
    for (const rename of endpoint.steps[i]!.responseHeaders)
      moveHeader(headers, rename.name.toLowerCase(), rename.previousName.toLowerCase());
}

/** A header renamed in place, when it is there. */
function moveHeader(headers: Headers, from: string, to: string): void {
  if (headers[from] === undefined) return;
  headers[to] = headers[from];
  delete headers[from];
}

/** What migrations are told of a derived version's call (see `MigrationContext`); `target` is below the version base. */
export function migrationContext(request: FastifyRequest, operation: OperationSpec, target: string): MigrationContext {
  const { path, query: text } = splitTarget(target);
  const raw = rawParameters(operation.path, path);
  const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, decoded(v, false) ?? v]));
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const seen = query[key];
    query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return {
    operation: { id: operation.id, method: operation.method, path: operation.path },
    params,
    query,
    headers: request.headers,
  };
}

/** A target's path and query (without its `?`); `marked` when it has a `?`, empty query or not. */
export function splitTarget(target: string): { path: string; query: string; marked: boolean } {
  const mark = target.indexOf('?');
  if (mark === -1) return { path: target, query: '', marked: false };
  return { path: target.slice(0, mark), query: target.slice(mark + 1), marked: true };
}

/** A path's segments by the template's parameter names, as sent (still percent-encoded). */
function rawParameters(template: string, path: string): Record<string, string> {
  const names = template.split('/');
  const segments = path.split('/');
  const out: Record<string, string> = {};
  names.forEach((part, i) => {
    const name = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (name !== undefined) out[name] = segments[i] ?? '';
  });
  return out;
}

function withSegments(template: string, raw: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => raw[name] ?? '');
}

/** A percent-encoded name or value, undefined when it does not decode; `+` is a space in a query (`form`), itself in a path. */
export function decoded(text: string, form: boolean): string | undefined {
  try {
    return decodeURIComponent(form ? text.replace(/\+/g, ' ') : text);
  } catch {
    return undefined;
  }
}
