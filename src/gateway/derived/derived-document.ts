import {
  methodOfMember,
  operationMembers,
  withPublishedNames,
  type ApiVersion,
  type EndpointSource,
} from '../../core/versions/index.ts';
import { decoded } from '../../http/derived-transport.ts';
import { belowBase } from './root-document.ts';

/**
 * A derived version's OpenAPI document: the newer version's own (descriptions, examples kept) with
 * the older version's schemas and operations, at their older paths, methods, statuses and names,
 * paths relative to the version base. Closed: a component nothing refers to is left out, as linters require.
 */
export function derivedDocument(options: {
  root: Json;
  /** `/api/v2`: the newer document's paths may be written below it. */
  rootBase: string;
  version: ApiVersion;
  /** By the derived version's operation id, the root's route that serves it and the changes on the way. */
  endpoints: ReadonlyMap<string, EndpointSource>;
}): Json {
  const { version, rootBase } = options;
  const doc = structuredClone(options.root);
  const components = (doc.components ?? {}) as Json;
  // The derived operations served by each of the root's routes (most by their own).
  const servedBy = new Map<string, ApiVersion['operations']>();
  for (const op of version.operations) {
    const route = options.endpoints.get(op.id)?.route;
    if (!route) continue;
    const key = `${route.method} ${route.path}`;
    servedBy.set(key, [...(servedBy.get(key) ?? []), op]);
  }
  const paths: Record<string, Json> = {};
  // QUERY under the root's own member: `query` exists from OpenAPI 3.2 on, `x-query` stands for it before.
  const queryMember = /^3\.[01]\./.test(String(doc.openapi)) ? 'x-query' : 'query';
  const place = (route: { path: string; method: string }, operation: unknown, shared: Json) => {
    const item = (paths[route.path] ??= { ...shared });
    item[route.method === 'QUERY' ? queryMember : route.method.toLowerCase()] = operation;
  };
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    const relative = belowBase(path, rootBase);
    const shared = Object.fromEntries(Object.entries(item ?? {}).filter(([key]) => !operationMembers.includes(key)));
    for (const [key, value] of Object.entries(item ?? {})) {
      // A `query` member is the path's QUERY, as the root's routes read it; an `x-query` beside it is not.
      if (!operationMembers.includes(key) || (key === 'x-query' && 'query' in item)) continue;
      for (const op of servedBy.get(`${methodOfMember(key)} ${relative}`) ?? []) {
        const moved = op.path !== relative;
        const operation = endpointInOlderTerms({
          operation: value as Json,
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
  const info = (doc.info ?? {}) as Json;
  // Renamed schemas under this version's names (`schema-renamed`), in the paths' references too;
  // then closed: what nothing it serves refers to is left out.
  return withoutUnused(
    withPublishedNames(
      {
        ...doc,
        info: { ...info, version: version.name },
        paths,
        components: { ...components, schemas: structuredClone(version.schemas) },
      },
      version.names,
    ),
  );
}

/** Component sections referred to by `$ref` (security schemes are named by `security`, and kept). */
const referable = [
  'schemas',
  'responses',
  'parameters',
  'examples',
  'requestBodies',
  'headers',
  'links',
  'callbacks',
  'pathItems',
];

/** The document without the components nothing outside `components` reaches through `$ref`s; empty sections dropped. */
function withoutUnused(doc: Json): Json {
  const components = (doc.components ?? {}) as Record<string, Json | undefined>;
  const reached = new Set<string>();
  const pending: unknown[] = Object.values({ ...doc, components: undefined });
  for (const [section, entries] of Object.entries(components)) if (!referable.includes(section)) pending.push(entries);
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== 'object') continue;
    // An array's entries too: an index is never `$ref`.
    for (const [key, child] of Object.entries(value)) {
      const match =
        key === '$ref' && typeof child === 'string' ? /^#\/components\/([^/]+)\/([^/]+)$/.exec(child) : null;
      if (!match) {
        pending.push(child);
        continue;
      }
      const name = nameOf(match[2]!);
      const at = `${match[1]} ${name}`;
      if (reached.has(at)) continue;
      reached.add(at);
      pending.push(components[match[1]!]?.[name]);
    }
  }
  const kept: Json = {};
  for (const [section, entries] of Object.entries(components)) {
    if (!referable.includes(section) || entries === null || typeof entries !== 'object') {
      kept[section] = entries;
      continue;
    }
    const used = Object.fromEntries(Object.entries(entries).filter(([name]) => reached.has(`${section} ${name}`)));
    if (Object.keys(used).length > 0) kept[section] = used;
  }
  return { ...doc, components: kept };
}

/** A component's name from its reference's last token (percent-encoded in a URI, `~1` and `~0` escaped). */
function nameOf(token: string): string {
  // Not percent-encoded after all: read as written.
  return (decoded(token, false) ?? token).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** An endpoint a newer version removed, as the older version documents it: answered 410. */
function goneOperation(op: ApiVersion['operations'][number], removedIn: string): Json {
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

type Json = Record<string, unknown>;

/**
 * The newer document's operation as the older version documents it: its own id, the path's shared
 * parameters when it moves, and its statuses, parameters and headers renamed back, newest change first.
 */
function endpointInOlderTerms(at: {
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
