import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { compileElementUses } from '../core/lifecycle/index.ts';
import { resolveVersion } from '../core/negotiation/index.ts';
import type { OperationSpec } from '../core/versions/index.ts';
import { createOperationHandler } from './operation-handler.ts';
import { callbackHook } from './pipeline/callback-hook.ts';
import { integerCoercion } from './query-integers.ts';
import { toRouteSchema } from './route-schemas.ts';
import type { VersionScope } from './version-scope.ts';
import { runHooks } from './version-hooks.ts';

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
    onRequest: versionPhase(scope, operation),
    preValidation: inputPhase(scope, operation),
    handler: createOperationHandler(scope, operation),
  });
}

/** The version and lifecycle phases of this route, compiled here: a hook that returns at once is not awaited. */
function versionPhase(scope: VersionScope, operation: OperationSpec): onRequestHookHandler {
  const { version, supported, vendor, hooks } = scope;
  const endpoint = `${operation.method} ${operation.path}`;
  const onCall = scope.onOperationCall;
  return (request, reply, done) => {
    try {
      resolveVersion({ pathVersion: version.number, accept: request.headers.accept, supported, vendor });
      onCall?.(request, version.name, endpoint);
    } catch (error) {
      return done(error as Error);
    }
    runHooks(hooks, { request, reply, version, operation }, done);
  };
}

/** The query's integers, the deprecated elements used, and the body's media type, before validation. */
function inputPhase(scope: VersionScope, operation: OperationSpec) {
  const { version } = scope;
  const bodyTypes = operation.bodyTypes ?? ['application/json'];
  const integers = integerCoercion(operation.query);
  // Compiled once per operation: one without deprecated elements gets no check at all.
  const usesOf =
    scope.elementUses &&
    compileElementUses({ version: version.name, operation, elements: scope.elementUses.elements, reach: scope.reach });
  const onUse = scope.elementUses?.onUse;
  // Synchronous: a hook that returns no promise costs no turn of the microtask queue.
  return callbackHook((request, reply) => {
    integers(request);
    if (usesOf && onUse) {
      const used = usesOf({ body: request.body, query: request.query as Record<string, unknown> });
      if (used.length > 0) onUse({ request, reply, version, operation, used });
    }
    if (!operation.body) return;
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!bodyTypes.includes(type)) {
      throw new VersionaryError({
        code: ErrorCode.UnsupportedMediaType,
        detail: `${operation.method} ${operation.path} takes ${bodyTypes.join(' or ')}, not ${type || 'a body without Content-Type'}.`,
        headers: operation.method === 'PATCH' ? { 'accept-patch': bodyTypes.join(', ') } : {},
      });
    }
  });
}
