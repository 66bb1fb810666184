import type { FastifyInstance, FastifyRequest } from 'fastify';
import { allowOf, methodNotAllowedProblem } from '../core/rulebook/problems.ts';
import { handlerCoverage } from './handler-coverage.ts';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import type { OperationSpec } from '../core/versions/index.ts';
import { registerOperation } from './operation-route.ts';
import { routeSteps, type RequestStep } from './pipeline/request-pipeline.ts';
import { versionRouteSteps } from './route-steps.ts';
import { createRequestValidatorCompiler } from './request-validator.ts';
import { createResponseChecks } from './response-check.ts';
import type { VersionedApiOptions } from './versioned-api-options.ts';
import { createVersionScope, type VersionScope } from './version-scope.ts';

// Every method Fastify can route (TRACE and QUERY included): a known path answers each with 405, never 404.
const routedMethods = (app: FastifyInstance) => app.supportedMethods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS');

const methodAnswerConfig = Symbol('versionary.methodAnswer');

/** Whether the request reached a path's 405 route: the role rule asks only `read` of it, not a 403. */
export function isMethodAnswer(request: FastifyRequest): boolean {
  const marked = (request.routeOptions.config as unknown as Record<symbol, unknown> | undefined)?.[methodAnswerConfig];
  return marked === true || (typeof marked === 'function' && (marked as (request: FastifyRequest) => boolean)(request));
}

/** The config of a route whose requests `answers` picks are 405 answers too (see {@link isMethodAnswer}). */
export function methodAnswerWhen(answers: (request: FastifyRequest) => boolean): Record<symbol, unknown> {
  return { [methodAnswerConfig]: answers };
}

/** Every operation of every version as its own route; other methods 405 and OPTIONS 204, with `Allow`. */
export function registerVersionedApi(app: FastifyInstance, options: VersionedApiOptions): void {
  const { missing } = handlerCoverage(options.bundle.head, options.handlers);
  if (missing.length > 0) {
    throw new VersionaryError({
      code: ErrorCode.InvalidDefinition,
      detail: `No handler for operation(s): ${missing.join(', ')}.`,
    });
  }
  const checks = options.validateResponses === false ? undefined : createResponseChecks();
  const validatorCompiler = createRequestValidatorCompiler();
  for (const version of options.bundle.versions)
    registerVersion(app, createVersionScope({ ...options, version, checks, validatorCompiler }));
}

function registerVersion(app: FastifyInstance, scope: VersionScope): void {
  const { version, base } = scope;
  const methodsByPath = new Map<string, string[]>();
  const firstOperation = new Map<string, OperationSpec>();
  for (const operation of version.operations) {
    const url = base + operation.path.replace(/\{([^}]+)\}/g, ':$1');
    methodsByPath.set(url, [...(methodsByPath.get(url) ?? []), operation.method]);
    if (!firstOperation.has(url)) firstOperation.set(url, operation);
    registerOperation(app, scope, { operation, url });
  }
  for (const [url, methods] of methodsByPath) {
    const operation = firstOperation.get(url)!;
    // The version's hooks run here too, so a removed version refuses OPTIONS and other methods alike.
    const steps = versionRouteSteps(scope, {
      operationOf: () => operation,
      calledOf: (request) => ({ ...operation, method: request.method as OperationSpec['method'] }),
    }).filter((step) => step.phase === 'lifecycle');
    registerMethodGuard(app, { url, methods, steps });
  }
}

function registerMethodGuard(
  app: FastifyInstance,
  options: { url: string; methods: string[]; steps: RequestStep[] },
): void {
  const allow = allowOf(options.methods);
  const others = routedMethods(app).filter((m) => !options.methods.includes(m));
  app.route({
    method: 'OPTIONS',
    url: options.url,
    config: routeSteps(options.steps),
    handler: async (_request, reply) => reply.code(204).header('allow', allow).send(),
  });
  if (others.length === 0) return;
  const refuse = async (request: FastifyRequest) => {
    throw methodNotAllowedProblem({ method: request.method, allow });
  };
  const answerConfig: Record<string | symbol, unknown> = {
    ...routeSteps([...options.steps, { name: 'method-not-allowed', phase: 'lifecycle', run: refuse }]),
    // Telling a reader which methods a path takes needs no more than reading it (see `isMethodAnswer`).
    [methodAnswerConfig]: true,
  };
  app.route({
    method: others,
    url: options.url,
    // Refused in onRequest, before the body is read: a body (or QUERY's required Content-Type) cannot turn the 405 into a 400 or 415.
    config: answerConfig,
    handler: refuse,
  });
}
