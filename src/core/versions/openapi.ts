import { problemSchema } from './problem-schema.ts';
import { ref } from './schema-walk.ts';
import type { ApiVersion } from './define-versions.ts';
import type { JsonSchema, OperationSpec } from './types.ts';

/** Options for {@link toOpenApiDocument}. */
export interface ToOpenApiOptions {
  version: ApiVersion;
  title: string;
  /** Prefix of every path, for example `/api/v1`. */
  basePath: string;
  /** Extra members per operation id, such as `deprecated` and `x-sunset` from the lifecycle. */
  annotate?: (operation: OperationSpec) => Record<string, unknown>;
  /** Extra members of `info`, such as the version's lifecycle dates. */
  info?: Record<string, unknown>;
}

/**
 * Generate the OpenAPI 3.1 document of one version from the same declarations that drive routing
 * and validation.
 *
 * @example
 * ```ts
 * const doc = toOpenApiDocument({ version: bundle.get('v1')!, title: 'Users API', basePath: '/api/v1' });
 * ```
 */
export function toOpenApiDocument(options: ToOpenApiOptions): Record<string, unknown> {
  const { version } = options;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of version.operations) {
    const path = options.basePath + op.path;
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = toOperation(op, options.annotate?.(op) ?? {});
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: version.name, ...options.info },
    servers: [{ url: '/' }],
    paths,
    components: { schemas: { ...version.schemas, Problem: problemSchema } },
  };
}

function toOperation(op: OperationSpec, extra: Record<string, unknown>): Record<string, unknown> {
  const parameters: JsonSchema[] = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1], in: 'path', required: true, schema: { type: 'string' },
  }));
  const query = (op.query?.properties ?? {}) as Record<string, JsonSchema>;
  const required = (op.query?.required ?? []) as string[];
  for (const [name, schema] of Object.entries(query)) {
    parameters.push({ name, in: 'query', required: required.includes(name), schema, ...(schema.description ? { description: schema.description } : {}) });
  }
  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(op.responses)) {
    const problem = Number(status) >= 400;
    const schema = problem ? ref('Problem') : spec.schema ? ref(spec.schema) : undefined;
    const type = problem ? 'application/problem+json' : 'application/json';
    responses[status] = { description: spec.description, ...(schema ? { content: { [type]: { schema } } } : {}) };
  }
  const body = op.body
    ? { requestBody: { required: true, content: Object.fromEntries((op.bodyTypes ?? ['application/json']).map((t) => [t, { schema: ref(op.body!) }])) } }
    : {};
  return { operationId: op.id, summary: op.summary, ...(op.tags ? { tags: op.tags } : {}), parameters, ...body, responses, ...extra };
}
