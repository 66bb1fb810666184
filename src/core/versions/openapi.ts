import { escapeRegExp } from '../text/index.ts';
import { annotateElements, type ElementDocumentation } from './element-annotations.ts';
import { withoutRequired } from './field-selection.ts';
import { partialTwinName } from './partial-twins.ts';
import { problemSchema } from './problem-schema.ts';
import { isPlainObject, reachableSchemas, ref, refName, refsIn } from './schema-walk.ts';
import type { ApiVersion } from './bundle-types.ts';
import type { JsonSchema, OperationSpec, SchemaMap } from './types.ts';

/** Options for {@link toOpenApiDocument}. */
export interface ToOpenApiOptions {
  version: ApiVersion;
  title: string;
  /** Prefix of every path, for example `/api/v1`. */
  basePath: string;
  /** Extra members per operation id, such as `deprecated` and `x-sunset` from the lifecycle. */
  annotate?: (operation: OperationSpec) => Record<string, unknown>;
  /**
   * Rewrite each generated operation object, after `annotate`: the service adds what its own
   * layers do to every operation (security, authentication and rate-limit responses, headers).
   */
  decorate?: (operation: OperationSpec, generated: Record<string, unknown>) => Record<string, unknown>;
  /** Extra members of `info`, such as the version's lifecycle dates. */
  info?: Record<string, unknown>;
  /**
   * Document what `fields` really returns: the success body of an operation with a `partial`
   * schema becomes the full schema or its `<Name>Partial` twin. Off by default, so documents made
   * only to be compared (migration guides) list each change once.
   */
  partialResponses?: boolean;
  /** Extra top-level members (`servers`, `tags`, `security`), replacing the defaults. */
  top?: Record<string, unknown>;
  /** Extra components (`securitySchemes`, `headers`, `responses`, `parameters`), merged. */
  components?: Record<string, Record<string, unknown>>;
  /**
   * Fields and query parameters deprecated within this version: each is marked `deprecated` with
   * its `x-sunset` and replacement, and a parameter past its sunset is left out. Without it (or
   * with no element of this version) the document is exactly what it would be otherwise.
   */
  elements?: ElementDocumentation;
  /**
   * `3.1` (default) or `3.2`. A 3.2 document puts QUERY operations under `query` and keeps
   * `deprecated` on security schemes; a 3.1 one, which has neither, writes them as the `x-query`
   * and `x-deprecated` extensions, so 3.1 tools (Redocly, Spectral) read it clean.
   */
  openapiVersion?: OpenApiVersion;
}

/** The OpenAPI versions a document is written in. */
export type OpenApiVersion = '3.1' | '3.2';

/**
 * Generate the OpenAPI 3.1 (or, on request, 3.2) document of one version from the same declarations that drive routing
 * and validation. Only the component schemas the operations reach are emitted, so a schema a
 * version no longer uses (an older version's leftover) does not appear. With `partialResponses`,
 * an operation with a `partial` schema documents its success body as the full representation or,
 * with `fields`, the `<Name>Partial` one whose members are all optional.
 *
 * @example
 * ```ts
 * const doc = toOpenApiDocument({ version: bundle.get('v1')!, title: 'Users API', basePath: '/api/v1' });
 * ```
 */
export function toOpenApiDocument(options: ToOpenApiOptions): Record<string, unknown> {
  const { version } = options;
  const v32 = options.openapiVersion === '3.2';
  const schemas: SchemaMap = { ...version.schemas, Problem: problemSchema };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of version.operations) {
    const path = options.basePath + op.path;
    paths[path] ??= {};
    const generated = {
      ...toOperation(op, options.partialResponses === true ? schemas : undefined),
      ...options.annotate?.(op),
    };
    paths[path][methodKey(op.method, v32)] = options.decorate ? options.decorate(op, generated) : generated;
  }
  const extra = v32 ? (options.components ?? {}) : withoutSchemeDeprecation(options.components ?? {});
  const reached = reachableSchemas({ schemas, roots: refsIn([paths, extra]) });
  const used = Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name)));
  const doc = {
    openapi: v32 ? '3.2.0' : '3.1.0',
    info: { title: options.title, version: version.name, ...options.info },
    servers: [{ url: '/' }],
    ...options.top,
    paths,
    components: { ...extra, schemas: { ...used, ...(extra.schemas ?? {}) } },
  };
  if (options.elements)
    annotateElements({ doc, version: version.name, basePath: options.basePath, elements: options.elements });
  return withPublishedNames(doc, version.names);
}

/** The path item members that hold an operation: `query` is 3.2's QUERY, `x-query` a 3.1 document's. */
export const operationMembers = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
  'query',
  'x-query',
];

/** The method an operation member of a path item stands for (the inverse of `methodKey`). */
export const methodOfMember = (key: string) => (key === 'x-query' ? 'QUERY' : key.toUpperCase());

/** The path item member of a method: `query` exists from OpenAPI 3.2 on, `x-query` stands for it before. */
function methodKey(method: OperationSpec['method'], v32: boolean): string {
  return method === 'QUERY' && !v32 ? 'x-query' : method.toLowerCase();
}

/** OpenAPI 3.1 security schemes have no `deprecated`: the mark is kept as `x-deprecated`. */
function withoutSchemeDeprecation(components: Record<string, Record<string, unknown>>) {
  const schemes = components.securitySchemes;
  if (!schemes) return components;
  const marked = Object.entries(schemes).map(([name, scheme]) => {
    if (!isPlainObject(scheme) || scheme.deprecated === undefined) return [name, scheme];
    const { deprecated, ...rest } = scheme;
    return [name, { ...rest, 'x-deprecated': deprecated }];
  });
  return { ...components, securitySchemes: Object.fromEntries(marked) as Record<string, unknown> };
}

function toOperation(op: OperationSpec, schemas: SchemaMap | undefined): Record<string, unknown> {
  const pathSchemas = (op.params?.properties ?? {}) as Record<string, JsonSchema>;
  const parameters: JsonSchema[] = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) =>
    withDescription({
      name: m[1],
      in: 'path',
      required: true,
      schema: pathSchemas[m[1]!] ?? { type: 'string', maxLength: 200 },
    }),
  );
  const query = (op.query?.properties ?? {}) as Record<string, JsonSchema>;
  const required = (op.query?.required ?? []) as string[];
  for (const [name, schema] of Object.entries(query)) {
    const documented = name === 'fields' && schemas ? withFieldNames({ op, schema, schemas }) : schema;
    parameters.push(withDescription({ name, in: 'query', required: required.includes(name), schema: documented }));
  }
  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(op.responses)) {
    const problem = Number(status) >= 400;
    const schema = problem ? ref('Problem') : spec.schema && successSchema({ op, name: spec.schema, schemas });
    const type = problem ? 'application/problem+json' : 'application/json';
    responses[status] = { description: spec.description, ...(schema ? { content: { [type]: { schema } } } : {}) };
  }
  const types = op.body ? (op.bodyTypes ?? ['application/json']) : [];
  const content = Object.fromEntries(types.map((t) => [t, { schema: ref(op.body!) }]));
  const body = op.body ? { requestBody: { required: true, content } } : {};
  return {
    operationId: op.id,
    summary: op.summary,
    ...(op.tags ? { tags: op.tags } : {}),
    parameters,
    ...body,
    responses,
  };
}

/**
 * `fields` names members of the operation's `partial` schema, and any other name is refused: the
 * parameter states this version's names as a pattern (blanks around a name are trimmed, as the
 * selector does), generated from the schema so it cannot drift.
 */
function withFieldNames(options: { op: OperationSpec; schema: JsonSchema; schemas: SchemaMap }): JsonSchema {
  const names = Object.keys((options.op.partial ? options.schemas[options.op.partial]?.properties : undefined) ?? {});
  if (names.length === 0) return options.schema;
  const one = `\\s*(?:${names.map(escapeRegExp).join('|')})\\s*`;
  const description = `${String(options.schema.description ?? 'Comma-separated field names.')} Names in this version: ${names.map((n) => `\`${n}\``).join(', ')}.`;
  return { ...options.schema, pattern: `^${one}(?:,${one})*$`, description };
}

function withDescription(parameter: JsonSchema): JsonSchema {
  const description = (parameter.schema as JsonSchema).description;
  return typeof description === 'string' ? { ...parameter, description } : parameter;
}

/**
 * The success body of an operation. With a `partial` schema, `fields` makes every object of that
 * schema carry only the named members, so the body is the full schema or its partial twin.
 */
function successSchema(options: { op: OperationSpec; name: string; schemas: SchemaMap | undefined }): JsonSchema {
  const { op, name, schemas } = options;
  const target = op.partial;
  if (!target || !schemas?.[target]) return ref(name);
  // Named as `partialTwins` names them, so the lifecycle accepts every twin this document shows.
  const partialTarget = partialTwinName(target);
  schemas[partialTarget] ??= toPartial(schemas[target]!, target);
  const partialRoot = name === target ? partialTarget : partialTwinName(name);
  schemas[partialRoot] ??= replaceRef({ schema: schemas[name]!, from: target, to: partialTarget });
  return { anyOf: [ref(name), ref(partialRoot)] };
}

function toPartial(schema: JsonSchema, name: string): JsonSchema {
  return {
    ...withoutRequired(schema),
    description: `${name} as selected by the \`fields\` parameter: only the named members, each present when the resource has a value for it.`,
  };
}

function replaceRef(options: { schema: JsonSchema; from: string; to: string }): JsonSchema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isPlainObject(value)) return value;
    if (refName(value.$ref) === options.from) return ref(options.to);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
  };
  return walk(options.schema) as JsonSchema;
}

/** A document with its schemas (keys and every `$ref`) under the names a version published (`schema-renamed`). */
export function withPublishedNames<T extends Record<string, unknown>>(
  doc: T,
  names: Readonly<Record<string, string>> | undefined,
): T {
  if (!names || Object.keys(names).length === 0) return doc;
  const renamed = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(renamed);
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const target = key === '$ref' ? refName(child) : undefined;
      out[key] =
        target !== undefined && Object.hasOwn(names, target) ? `#/components/schemas/${names[target]}` : renamed(child);
    }
    return out;
  };
  const out = renamed(doc) as T & { components?: { schemas?: Record<string, unknown> } };
  const schemas = out.components?.schemas;
  if (schemas)
    out.components!.schemas = Object.fromEntries(
      Object.entries(schemas).map(([name, schema]) => [Object.hasOwn(names, name) ? names[name] : name, schema]),
    );
  return out;
}
