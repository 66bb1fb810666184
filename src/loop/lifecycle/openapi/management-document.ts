import { earlierNames } from '../../../core/earlier-names.ts';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { problemSchema } from '../../../core/versions/index.ts';
import { documentedParameters, servedHere, headerOf, parameterRef, usedHeaders } from './headers.ts';
import { securityFor, securitySchemes } from './security.ts';
import { layeredHeaders, layeredProblems, problem } from './operation-responses.ts';

interface ManagementRoute {
  method: string;
  url: string;
  schema: Record<string, unknown> | undefined;
}

const layered: Record<string, string> = { ...layeredProblems, 403: 'The credentials lack the admin role' };
const tagDescriptions: Record<string, string> = {
  'api-keys': 'Credentials: create, list and revoke API keys.',
  versions: 'The lifecycle of each API version and the usage of deprecated ones.',
  deprecations:
    'Deprecations of single endpoints, and the listing of everything deprecated (versions, endpoints, fields, query parameters) with its usage.',
  clients: 'The consumers of the API, their contacts and their webhooks.',
  usage: 'Calls per client, version, endpoint and day.',
  notices: 'Deprecation notices planned for each client, and their delivery.',
  approvals:
    'Approvals of breaking changes by fingerprint, for `versionary diff --server`; revoked ones stay in the trail.',
  brownouts: 'Planned windows in which a deprecated version or endpoint answers as if removed.',
  documents: 'Machine-readable descriptions of the management API.',
  [earlierNames.tag]:
    'Extended access for one client past a sunset, up to the cap (`extendedAccessUntil`); revoked ones stay in the trail.',
};

// No query parameters: an unknown one is refused (400), as on every management route.
const documentQuery = { type: 'object', properties: {}, additionalProperties: false };
const documentSchema = {
  querystring: documentQuery,
  operationId: 'openapi.management',
  summary: 'This OpenAPI document',
  description:
    "The management API's OpenAPI 3.1 document, generated from the routes' own schemas at the time of the request.",
  tags: ['documents'],
  response: { 200: { type: 'object', description: 'This OpenAPI 3.1 document' } },
};

/**
 * Serve `<prefix>/openapi.json`, generated from the routes' own schemas. Call it before the
 * management routes are registered: an `onRoute` hook collects every route under the prefix. A route
 * without response schemas is still listed, marked `x-undocumented`, so a test catches it.
 */
export function registerManagementDocument(app: FastifyInstance, options: { prefix: string; jwt: boolean }): void {
  const documentUrl = `${options.prefix}/openapi.json`;
  // The document lists itself; its schema is given here, not to Fastify, whose serializer would
  // drop every member an empty object schema does not name.
  const routes: ManagementRoute[] = [{ method: 'GET', url: documentUrl, schema: documentSchema }];
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(`${options.prefix}/`) || route.url === documentUrl) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        routes.push({ method, url: route.url, schema: route.schema as Record<string, unknown> | undefined });
    }
  });
  app.get(documentUrl, { schema: { querystring: documentQuery } }, async () =>
    toManagementDocument({ routes, jwt: options.jwt }),
  );
}

function toManagementDocument(options: { routes: ManagementRoute[]; jwt: boolean }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const route of options.routes) {
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    paths[path] ??= {};
    const operation = toOperation(route, options.jwt);
    for (const tag of (operation.tags as string[] | undefined) ?? []) tags.add(tag);
    paths[path][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Versionary management API',
      version: 'v1',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Operate a Versionary deployment: API keys, version lifecycles, endpoint deprecations, clients and their usage, deprecation notices and brownouts. Every operation needs credentials with the `admin` role. Errors are RFC 9457 problems (`application/problem+json`).',
    },
    servers: servedHere(true),
    tags: [...tags].map((name) => ({ name, description: tagDescriptions[name] ?? name })),
    paths,
    components: {
      schemas: { Problem: problemSchema },
      headers: usedHeaders(paths),
      securitySchemes: securitySchemes({ jwt: options.jwt }),
      parameters: { IfNoneMatch: documentedParameters.IfNoneMatch! },
    },
  };
}

function toOperation(route: ManagementRoute, jwt: boolean): Record<string, unknown> {
  const schema = route.schema ?? {};
  const parameters: unknown[] = [
    ...toParameters(schema.params, 'path'),
    ...toParameters(schema.querystring, 'query'),
    ...(route.method === 'GET' ? [parameterRef('IfNoneMatch')] : []),
  ];
  const declared = (schema.response ?? {}) as Record<string, Record<string, unknown>>;
  const headersOf = (schema.responseHeaders ?? {}) as Record<string, string[]>;
  const responses: Record<string, Record<string, unknown>> = {};
  for (const [status, body] of Object.entries(declared)) {
    const { description = `Status ${status}`, ...schema } = plain(body) as Record<string, unknown>;
    const named = headersOf[status] ?? [];
    const headers = Object.fromEntries(named.map((name) => [name, headerOf(name, { required: true })]));
    responses[status] =
      Number(status) >= 400
        ? { ...problem(description as string), headers }
        : schema.type === 'null'
          ? { description, headers }
          : { description, content: { 'application/json': { schema } }, headers };
  }
  for (const [status, description] of Object.entries(layered)) responses[status] ??= problem(description);
  if (schema.body || schema.params || schema.querystring) responses['400'] ??= problem('An invalid parameter or body');
  if (schema.body) {
    responses['413'] ??= problem('The body is larger than the limit');
    responses['415'] ??= problem('The body is not JSON');
  }
  if (route.method === 'GET')
    responses['304'] ??= { description: 'Not modified: `If-None-Match` names the current ETag' };
  for (const [status, response] of Object.entries(responses))
    responses[status] = {
      ...response,
      headers: { ...layeredHeaders(Number(status), route.method), ...(response.headers as object | undefined) },
    };
  const undocumented = route.schema?.response === undefined;
  return {
    operationId: schema.operationId ?? `${route.method.toLowerCase()} ${route.url}`,
    summary: schema.summary ?? `${route.method} ${route.url}`,
    description:
      `${String(schema.description ?? schema.summary ?? '')} Needs credentials with the \`admin\` role.`.trim(),
    tags: schema.tags ?? ['management'],
    ...securityFor({ role: 'admin', jwt }),
    parameters,
    ...(schema.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: plain(schema.body) } } } }
      : {}),
    responses: Object.fromEntries(
      Object.keys(responses)
        .sort()
        .map((s) => [s, responses[s]]),
    ),
    ...(undocumented ? { 'x-undocumented': true } : {}),
    // A deviation from the conventions the route states, with its reason in the description.
    ...(Array.isArray(schema['x-lint-skip']) ? { 'x-lint-skip': schema['x-lint-skip'] } : {}),
  };
}

function toParameters(schema: unknown, location: 'path' | 'query'): unknown[] {
  const object = plain(schema) as
    { properties?: Record<string, Record<string, unknown>>; required?: string[] } | undefined;
  return Object.entries(object?.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object?.required ?? []).includes(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

/** A JSON copy: drops TypeBox's symbol keys. */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
