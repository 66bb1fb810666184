import type { EndpointSource } from '../../core/versions/index.ts';

type Json = Record<string, unknown>;

/**
 * The newer document's operation as the older version documents it: its own id, the path's shared
 * parameters when it moves, and its statuses, parameters and headers renamed back, newest change first.
 */
export function endpointInOlderTerms(at: {
  operation: Json;
  /** The path item's members other than operations (its `parameters`), when the operation leaves that path. */
  shared: Json;
  id: string;
  source: EndpointSource;
  components: Json;
}): Json {
  const operation = structuredClone(at.operation);
  if (typeof operation.operationId === 'string' && operation.operationId !== at.id) operation.operationId = at.id;
  // Parameters stay as written (a `$ref` too) unless renamed.
  const look = (p: Json) => resolved(p, at.components);
  const own = listOf(operation.parameters);
  const inherited = listOf(at.shared.parameters).filter(
    (p) => !own.some((o) => look(o).name === look(p).name && look(o).in === look(p).in),
  );
  let parameters = [...own, ...structuredClone(inherited)];
  let responses = (operation.responses ?? {}) as Json;
  for (const step of [...at.source.steps].reverse()) {
    const renamed = (where: string, renames: Array<{ name: string; previousName: string }>, ignoreCase: boolean) => {
      const same = (a: unknown, b: string) =>
        typeof a === 'string' && (ignoreCase ? a.toLowerCase() === b.toLowerCase() : a === b);
      parameters = parameters.map((p) => {
        const seen = look(p);
        const rename = seen.in === where ? renames.find((r) => same(seen.name, r.name)) : undefined;
        return rename ? { ...structuredClone(seen), name: rename.previousName } : p;
      });
    };
    renamed('query', step.query, false);
    renamed('header', step.requestHeaders, true);
    responses = Object.fromEntries(
      Object.entries(responses).map(([status, response]) => {
        const previous = step.statuses.find((s) => String(s.status) === status)?.previousStatus;
        return [previous === undefined ? status : String(previous), withHeaders(response, step.responseHeaders)];
      }),
    );
  }
  if (parameters.length > 0 || operation.parameters !== undefined) operation.parameters = parameters;
  if (operation.responses !== undefined) operation.responses = responses;
  return operation;
}

/** A response's documented headers, each renamed one by its older name. */
function withHeaders(response: unknown, renames: Array<{ name: string; previousName: string }>): unknown {
  const headers = (response as Json | null)?.headers as Json | undefined;
  if (!headers || renames.length === 0) return response;
  const out = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      const rename = renames.find((r) => r.name.toLowerCase() === name.toLowerCase());
      return [rename ? rename.previousName : name, value];
    }),
  );
  return { ...(response as Json), headers: out };
}

function listOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((p): p is Json => typeof p === 'object' && p !== null) : [];
}

/** A parameter, its `$ref` to `#/components/parameters` resolved (a renamed one is the operation's own). */
function resolved(parameter: Json, components: Json): Json {
  const name =
    typeof parameter.$ref === 'string' ? /^#\/components\/parameters\/([^/]+)$/.exec(parameter.$ref)?.[1] : undefined;
  const shared = name === undefined ? undefined : ((components.parameters ?? {}) as Json)[name];
  return typeof shared === 'object' && shared !== null ? (shared as Json) : parameter;
}
