import { compileElementUses, fieldSchemas, servedSchemas } from '../../../core/lifecycle/index.ts';
import {
  deprecatedOperation,
  toOpenApiDocument,
  type ApiVersion,
  type DeprecationFacts,
  type ElementDocumentation,
  type OpenApiVersion,
  type OperationSpec,
} from '../../../core/versions/index.ts';
import { documentedParameters, servedHere, parameterRef, usedHeaders } from './headers.ts';
import { operationResponses, type OperationLifecycle } from './operation-responses.ts';
import { securityFor, securitySchemes } from './security.ts';

export interface VersionDocumentOptions {
  version: ApiVersion;
  title: string;
  basePath: string;
  jwt: boolean;
  openapiVersion?: OpenApiVersion;
  lifecycle: (operation: OperationSpec) => OperationLifecycle & { deprecation?: DeprecationFacts };
  /** Extra `info` members: the app's words, and a removed version's mark. */
  info?: Record<string, unknown>;
  elements?: ElementDocumentation;
}

const tagDescriptions: Record<string, string> = {
  users: 'People using the service. Deleting a user deletes their posts.',
  posts: 'Posts, a sub-collection of their user.',
  documents: 'Machine-readable descriptions of this version.',
};

/** A version's served document: its own declarations plus what the service's layers add to every operation. */
export function createVersionDocument(options: VersionDocumentOptions): Record<string, unknown> {
  // Built per request from the lifecycle as it stands, but only rebuilt when what it says changes.
  const lifecycles = new Map(options.version.operations.map((op) => [op, options.lifecycle(op)]));
  const key = JSON.stringify([
    options.title,
    options.basePath,
    options.jwt,
    options.openapiVersion ?? '3.1',
    options.info ?? {},
    [...lifecycles.values()],
    elementsKey(options),
  ]);
  const cache = built.get(options.version) ?? new Map<string, Record<string, unknown>>();
  built.set(options.version, cache);
  const hit = cache.get(key);
  if (hit) return hit;
  const doc = buildVersionDocument({ ...options, lifecycle: (op) => lifecycles.get(op) ?? options.lifecycle(op) });
  if (cache.size >= 16) cache.delete(cache.keys().next().value as string);
  cache.set(key, doc);
  return doc;
}

const built = new WeakMap<ApiVersion, Map<string, Record<string, unknown>>>();

/** What the elements change in this version's document: its elements, which parameters are past their sunset, and their guides. */
function elementsKey(options: VersionDocumentOptions): unknown {
  const { elements } = options;
  if (!elements) return [];
  const mine = elements.deprecations.filter((e) => e.version === options.version.name);
  return mine.map((e) => [e, e.kind === 'parameter' && e.sunsetAt <= elements.now, elements.guideOf?.(e)]);
}

function buildVersionDocument(options: VersionDocumentOptions): Record<string, unknown> {
  const { version, jwt } = options;
  const tags = [...new Set(version.operations.flatMap((op) => op.tags ?? []))];
  const usesElements = elementsUsedBy(options);
  const doc = toOpenApiDocument({
    version,
    title: options.title,
    basePath: options.basePath,
    partialResponses: true,
    ...(options.openapiVersion ? { openapiVersion: options.openapiVersion } : {}),
    ...(options.elements ? { elements: options.elements } : {}),
    // Only what the app said of its API (description, license, contact), never a default of ours.
    ...(options.info ? { info: options.info } : {}),
    top: {
      servers: servedHere(false),
      tags: [...tags, 'documents'].map((name) => ({ name, description: tagDescriptions[name] ?? name })),
    },
    components: { securitySchemes: securitySchemes({ jwt }), parameters: documentedParameters },
    decorate: (op, generated) => {
      const lifecycle = options.lifecycle(op);
      const role = op.method === 'GET' || op.method === 'QUERY' ? 'read' : 'write';
      const parameters = [...(generated.parameters as unknown[])];
      const description = `${op.summary}. Needs credentials with the \`${role}\` role.`;
      if (op.method === 'GET') parameters.push(parameterRef('IfNoneMatch'));
      if (op.responses[412]) parameters.push(parameterRef('IfMatch'));
      if (op.method === 'POST') parameters.push(parameterRef('IdempotencyKey'));
      return {
        ...generated,
        description,
        ...securityFor({ role, jwt }),
        parameters,
        responses: operationResponses({
          op,
          generated: generated.responses as Record<string, Record<string, unknown>>,
          lifecycle: { ...lifecycle, elementsDeprecated: usesElements(op) },
        }),
        // `deprecated`, `x-sunset`, the SDK generators' extensions, and the message in the description.
        ...(lifecycle.deprecated && lifecycle.deprecation
          ? deprecatedOperation(description, lifecycle.deprecation)
          : {}),
      };
    },
  });
  (doc.paths as Record<string, unknown>)[`${options.basePath}/openapi.json`] = { get: documentOperation(version.name) };
  (doc.components as Record<string, unknown>).headers = usedHeaders(doc.paths);
  return doc;
}

/** Whether an operation can use a deprecated element of this version: the route's own check, so headers match. */
function elementsUsedBy(options: VersionDocumentOptions): (op: OperationSpec) => boolean {
  const elements = options.elements?.deprecations.filter((e) => e.version === options.version.name) ?? [];
  if (elements.length === 0) return () => false;
  const served = servedSchemas(options.version);
  return (op) =>
    compileElementUses({
      version: options.version.name,
      operation: op,
      elements,
      reach: (e) => fieldSchemas(e, served),
    }) !== undefined;
}

/** The document's own route: public (`security: []`) so tools can fetch it without a key. */
function documentOperation(name: string): Record<string, unknown> {
  const summary = 'This OpenAPI document';
  const body = `The OpenAPI 3.1 document of ${name}, built from the version's declarations and lifecycle at the time of the request`;
  const op: OperationSpec = {
    id: `openapi.${name}`,
    method: 'GET',
    path: '/',
    summary,
    responses: { 200: { description: body } },
  };
  const responses = operationResponses({
    op,
    generated: {
      200: { description: body, content: { 'application/json': { schema: { type: 'object', description: summary } } } },
    },
    lifecycle: { deprecated: false, removedStatus: 410 },
  }) as Record<string, unknown>;
  // No credentials are read here, so neither 401 nor 403 can happen.
  delete responses['401'];
  delete responses['403'];
  return {
    operationId: op.id,
    summary,
    tags: ['documents'],
    security: [],
    description: `The OpenAPI document of ${name}. Public: no credentials needed.`,
    parameters: [parameterRef('IfNoneMatch')],
    responses,
  };
}
