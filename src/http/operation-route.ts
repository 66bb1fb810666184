import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { compileElementUses } from '../core/lifecycle/index.ts';
import type { OperationSpec } from '../core/versions/index.ts';
import { createOperationHandler } from './operation-handler.ts';
import { routeSteps, type RequestStep } from './pipeline/request-pipeline.ts';
import { integerCoercion } from './query-integers.ts';
import { toRouteSchema } from './route-schemas.ts';
import { deprecatedElementsStep, versionRouteSteps } from './route-steps.ts';
import type { VersionScope } from './version-scope.ts';

/** Register one operation of one version as its own route, with that version's schemas. */
export function registerOperation(
  app: FastifyInstance,
  scope: VersionScope,
  { operation, url }: { operation: OperationSpec; url: string },
): void {
  const { version } = scope;
  const response: Record<number, unknown> = {};
  for (const status of [200, 201]) {
    const name = operation.responses[status]?.schema;
    if (name) response[status] = toRouteSchema({ version, name, forSerializer: true });
  }
  // QUERY is routable from Fastify 5.12 on; an older Fastify 5 learns it, as a method with a body.
  if (!app.supportedMethods.includes(operation.method)) app.addHttpMethod(operation.method, { hasBody: true });
  app.route({
    method: operation.method,
    url,
    schema: {
      ...(operation.body ? { body: toRouteSchema({ version, name: operation.body }) } : {}),
      querystring: operation.query ?? { type: 'object', additionalProperties: false },
      response,
    },
    // The route's own: whatever the app's `ajv` options, the body is held to the document.
    validatorCompiler: scope.validatorCompiler,
    config: routeSteps([
      ...versionRouteSteps(scope, { operationOf: () => operation }),
      ...inputSteps(scope, operation),
    ]),
    handler: createOperationHandler(scope, operation),
  });
}

/** The query's integers, the deprecated elements used, and the body's media type, each only where it applies. */
function inputSteps(scope: VersionScope, operation: OperationSpec): RequestStep[] {
  const { version } = scope;
  const steps: RequestStep[] = [];
  const integers = integerCoercion(operation.query);
  if (integers) steps.push({ name: 'query-integers', phase: 'input', run: (request) => integers(request) });
  // Compiled once per operation: one without deprecated elements gets no step at all.
  const usesOf =
    scope.elementUses &&
    compileElementUses({ version: version.name, operation, elements: scope.elementUses.elements, reach: scope.reach });
  const onUse = scope.elementUses?.onUse;
  if (usesOf && onUse)
    steps.push(
      deprecatedElementsStep({
        phase: 'input',
        version,
        operationOf: () => operation,
        checkOf: () => usesOf,
        read: (request) => ({ body: request.body, query: request.query as Record<string, unknown> }),
        onUse,
      }),
    );
  if (operation.body) steps.push(mediaTypeStep(operation));
  return steps;
}

function mediaTypeStep(operation: OperationSpec): RequestStep {
  const bodyTypes = operation.bodyTypes ?? ['application/json'];
  return {
    name: 'body-media-type',
    phase: 'input',
    run: (request) => {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (bodyTypes.includes(type)) return;
      throw new VersionaryError({
        code: ErrorCode.UnsupportedMediaType,
        detail: `${operation.method} ${operation.path} takes ${bodyTypes.join(' or ')}, not ${type || 'a body without Content-Type'}.`,
        headers: operation.method === 'PATCH' ? { 'accept-patch': bodyTypes.join(', ') } : {},
      });
    },
  };
}
