import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { toBundle, versionNamePattern as namePattern, type ApiVersion, type VersionBundle } from './bundle-types.ts';
import type { HttpMethod, JsonSchema, OperationSpec, ResponseSpec, SchemaMap } from './types.ts';
import { isPlainObject } from './schema-walk.ts';

/** One version's OpenAPI document, for {@link bundleFromOpenApi}. */
export interface OpenApiVersionInput {
  /** `v1`, `v2`… */
  name: string;
  document: Record<string, unknown>;
}

const methods: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'QUERY'];

/**
 * A version bundle read from each version's own OpenAPI document, for an API Versionary does not
 * serve itself (`versionary gateway`): every version keeps its own operations and schemas, and no
 * version is derived from another, so there are no migrations. Paths may be written below the
 * version (`/users/{id}` with a server URL of `/api/v1`) or in full (`/api/v1/users/{id}`); the
 * version prefix is taken off. Inline body schemas become named components, so the documents,
 * docs pages, guides and breaking-change lists work on them as on a declared bundle. Every
 * problem of every document is reported at once.
 *
 * @example
 * ```ts
 * const bundle = bundleFromOpenApi({ prefix: '/api', versions: [{ name: 'v1', document: v1 }, { name: 'v2', document: v2 }] });
 * bundle.get('v1')?.operations.map((op) => `${op.method} ${op.path}`) // ['GET /users', …]
 * ```
 */
export function bundleFromOpenApi(options: {
  prefix: string;
  versions: readonly OpenApiVersionInput[];
}): VersionBundle {
  const problems: string[] = [];
  const versions: ApiVersion[] = [];
  let last = 0;
  for (const input of options.versions) {
    const number = Number(namePattern.exec(input.name)?.[1] ?? 0);
    if (number === 0) problems.push(`version name "${input.name}" must look like v1, v2, ...`);
    else if (number <= last) problems.push(`${input.name} must come after v${last}: versions are listed oldest first`);
    last = Math.max(last, number);
    const { problems: found, ...read } = readVersion({ input, prefix: options.prefix });
    problems.push(...found.map((p) => `${input.name}: ${p}`));
    versions.push({ name: input.name, number, index: versions.length, ...read, changes: [] });
  }
  if (versions.length === 0) problems.push('at least one version is needed');
  if (problems.length > 0) {
    throw new VersionaryError({
      code: ErrorCode.InvalidDefinition,
      detail: `The OpenAPI documents have ${problems.length} problem(s): ${problems.join('; ')}`,
      errors: problems.map((detail) => ({ pointer: '/gateway/versions', detail })),
    });
  }
  const latest = versions[versions.length - 1]!;
  // Each version is its upstream's own: a body passes between versions unchanged.
  return toBundle({ schemas: latest.schemas, operations: latest.operations }, versions, {
    responseDown: ({ body }) => body,
    requestUp: ({ body }) => body,
  });
}

function readVersion(options: { input: OpenApiVersionInput; prefix: string }): {
  schemas: SchemaMap;
  operations: OperationSpec[];
  problems: string[];
} {
  const { document } = options.input;
  const problems: string[] = [];
  if (typeof document.openapi !== 'string' || !/^3\.[012]\./.test(document.openapi))
    problems.push('is not an OpenAPI 3.0, 3.1 or 3.2 document (no "openapi": "3.x.y")');
  const paths = objectAt(document, 'paths');
  if (!paths) return { schemas: {}, operations: [], problems: [...problems, 'has no "paths" object'] };
  const components = objectAt(document, 'components') ?? {};
  const schemas: SchemaMap = structuredClone(objectAt(components, 'schemas') ?? {}) as SchemaMap;
  const parameters = objectAt(components, 'parameters') ?? {};
  const base = `${options.prefix}/${options.input.name}`;
  const operations: OperationSpec[] = [];
  const ids = new Set<string>();
  const named = (schema: unknown, fallback: string): string | undefined => {
    if (!isPlainObject(schema)) return undefined;
    // `anyOf: [X, XPartial]`, the body of an operation with `fields=`: the body is an X, or its projection.
    const [full, ...partials] = Array.isArray(schema.anyOf) ? (schema.anyOf as unknown[]) : [];
    const fullName = isPlainObject(full) ? componentName(full.$ref) : undefined;
    if (
      fullName &&
      fullName in schemas &&
      partials.length > 0 &&
      partials.every((p) => isPlainObject(p) && p.$ref === `#/components/schemas/${fullName}Partial`)
    )
      return fullName;
    const ref = componentName(schema.$ref);
    if (ref) {
      if (!(ref in schemas)) problems.push(`${fallback}: $ref ${String(schema.$ref)} names no schema`);
      return ref;
    }
    schemas[fallback] = schema as JsonSchema;
    return fallback;
  };
  for (const [rawPath, item] of Object.entries(paths)) {
    if (!isPlainObject(item)) continue;
    const path = rawPath === base ? '/' : rawPath.startsWith(`${base}/`) ? rawPath.slice(base.length) : rawPath;
    if (!path.startsWith('/')) problems.push(`path "${rawPath}" must start with "/"`);
    for (const method of methods) {
      // QUERY: `query` in a 3.2 document, the `x-query` extension in a 3.1 one.
      const op = method === 'QUERY' ? (item.query ?? item['x-query']) : item[method.toLowerCase()];
      if (!isPlainObject(op)) continue;
      const id = typeof op.operationId === 'string' && op.operationId.length > 0 ? op.operationId : `${method} ${path}`;
      if (ids.has(id)) problems.push(`operationId "${id}" is used twice`);
      ids.add(id);
      const stem = id.replace(/[^A-Za-z0-9]+/g, '_');
      const params = [...arrayAt(item, 'parameters'), ...arrayAt(op, 'parameters')]
        .map((p) => resolveParameter(p, parameters))
        .filter(isPlainObject);
      const content = objectAt(objectAt(op, 'requestBody') ?? {}, 'content');
      const jsonType = content && Object.keys(content).find((t) => /json/i.test(t));
      const responses: Record<number, ResponseSpec> = {};
      for (const [status, response] of Object.entries(objectAt(op, 'responses') ?? {})) {
        if (!/^[1-5][0-9][0-9]$/.test(status) || !isPlainObject(response)) continue;
        const media = objectAt(response, 'content');
        const type = media && Object.keys(media).find((t) => /json/i.test(t));
        const schema = type ? named(objectAt(media, type)?.schema, `${stem}_${status}`) : undefined;
        responses[Number(status)] = {
          description: typeof response.description === 'string' ? response.description : status,
          ...(schema ? { schema } : {}),
        };
      }
      const body = jsonType ? named(objectAt(content, jsonType)?.schema, `${stem}_body`) : undefined;
      operations.push({
        id,
        method,
        path,
        summary: typeof op.summary === 'string' ? op.summary : `${method} ${path}`,
        responses,
        ...(body ? { body, bodyTypes: Object.keys(content!) } : {}),
        ...parameterSchemas(params),
        ...(Array.isArray(op.tags) ? { tags: op.tags.filter((t): t is string => typeof t === 'string') } : {}),
      });
    }
  }
  if (operations.length === 0)
    problems.push('documents no operation (GET, POST, PUT, PATCH, DELETE or QUERY under "paths")');
  return { schemas, operations, problems };
}

function parameterSchemas(params: Record<string, unknown>[]): Pick<OperationSpec, 'query' | 'params'> {
  const out: Pick<OperationSpec, 'query' | 'params'> = {};
  for (const where of ['query', 'path'] as const) {
    const list = params.filter((p) => p.in === where && typeof p.name === 'string');
    if (list.length === 0) continue;
    const properties = Object.fromEntries(list.map((p) => [p.name as string, isPlainObject(p.schema) ? p.schema : {}]));
    const required = list.filter((p) => p.required === true).map((p) => p.name as string);
    out[where === 'query' ? 'query' : 'params'] = {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
    };
  }
  return out;
}

function componentName(ref: unknown): string | undefined {
  return typeof ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
}

function resolveParameter(parameter: unknown, shared: Record<string, unknown>): unknown {
  if (!isPlainObject(parameter) || typeof parameter.$ref !== 'string') return parameter;
  const name = /^#\/components\/parameters\/([^/]+)$/.exec(parameter.$ref)?.[1];
  return name ? shared[name] : undefined;
}

function objectAt(value: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  const found = value?.[key];
  return isPlainObject(found) ? found : undefined;
}

function arrayAt(value: Record<string, unknown>, key: string): unknown[] {
  const found = value[key];
  return Array.isArray(found) ? found : [];
}
