import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { echo, ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { resolveVersion } from '../core/negotiation/index.ts';
import {
  allowOf,
  methodNotAllowedProblem,
  notServedProblem,
  unknownVersionProblem,
} from '../core/rulebook/problems.ts';
import type { VersionBundle } from '../core/versions/index.ts';
import { methodsAt } from '../core/rulebook/route-index.ts';
import { createApiScope, versionDocumentPath, type ApiScope } from './api-scope.ts';
import type { unroutedDecisionOf } from './removed-gate.ts';
import { defineStep, stepKey } from './pipeline/step-definition.ts';
import { fromFrameworkError } from './fastify-errors.ts';
import { stateOf } from './pipeline/request-state.ts';
import { internalError, logFailure, sendProblem } from './problem.ts';

export interface ProblemHandlingOptions {
  bundle: VersionBundle;
  prefix: string;
  vendor: string;
  /** A removed version answers with this error on paths that have no route. */
  removedVersion?: (name: string) => VersionaryError | undefined;
  /**
   * Core's `decide` on a path with no route, with its caller (`unroutedDecisionOf`): its refusal,
   * `null` when nothing refuses but the method, `undefined` when the table cannot say.
   */
  decided?: ReturnType<typeof unroutedDecisionOf>;
  /** Answer the paths with no route too (default true); `false` leaves them to the app's handler. */
  notFound?: boolean;
  /** Whether a version forwards undocumented paths; any other version's is a 404 whatever the method. */
  forwardsUndocumented?: (version: string) => boolean;
}

/** Every error of a context an RFC 9457 problem, for an app that owns its root. */
export function installProblemHandling(app: FastifyInstance, options: ProblemHandlingOptions): void {
  app.setErrorHandler(problemErrorHandler);

  if (options.notFound !== false) app.setNotFoundHandler(notFoundProblems(options));
}

/** Every error an RFC 9457 problem; a 500 is logged in full and answered without a stack trace. */
export function problemErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = fromFrameworkError(error);
  if (known && known.code !== ErrorCode.Internal) return sendProblem(reply, known);
  const logged = logFailure(request, error, known ? 'internal error' : 'unhandled error');
  return sendProblem(reply, known ?? internalError({ logged }));
}

export const unversionedVaryKey = stepKey<object>('unversioned-vary');

/** The `gate:unversioned-vary` step: `Vary: Accept` on every answer to an unversioned API path, problems included. */
export const unversionedVaryStep = defineStep({
  needs: unversionedVaryKey,
  name: 'unversioned-vary',
  thin: true,
  phase: 'gate',
  appliesTo: (route) => route.api,
  create: () => (request, reply) => {
    if (stateOf(request).unversioned) reply.header('vary', 'Accept');
  },
});

/** The plugin's problems on its own routes and prefix only; the app's own handlers stay as set. */
export async function installPrefixProblems(
  app: FastifyInstance,
  options: ProblemHandlingOptions,
  register: () => void | Promise<void>,
): Promise<void> {
  // Fastify runs onRoute hooks as a route is declared: only the routes `register` declares match.
  let registering = true;
  app.addHook('onRoute', (route) => {
    if (registering && route.errorHandler === undefined) route.errorHandler = problemErrorHandler;
  });
  try {
    await register();
  } finally {
    registering = false;
  }
  if (options.notFound === false) return;
  // Its own context under the prefix (Fastify allows one not-found handler per prefix), so the
  // app's root handler is never touched.
  const handler = notFoundProblems(options);
  await app.register(
    async (scope) => {
      scope.setErrorHandler(problemErrorHandler);
      scope.setNotFoundHandler(handler);
    },
    { prefix: options.prefix },
  );
}

/** A path below its version (`version` absent: negotiated from `Accept`), without a trailing slash. */
function belowOf(scope: ApiScope, path: string, version: string | undefined): string {
  const rest = path.slice(scope.prefix.length + (version === undefined ? 0 : 1 + version.length)) || '/';
  return rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest;
}

/** The methods a path is served with: its version document's, else the router's routes there. */
function declaredMethodsAt(
  request: FastifyRequest,
  o: { bundle: VersionBundle; scope: ApiScope; path: string; forwardsUndocumented?: (version: string) => boolean },
): string[] {
  const { bundle, scope, path } = o;
  const version = scope.versionOf(path);
  const api = version === undefined ? undefined : bundle.byNumber(Number(version.slice(1)));
  if (version !== undefined && api) {
    const below = belowOf(scope, path, version);
    if (below === versionDocumentPath) return ['GET'];
    const operations = api.operations.map((op) => ({ method: op.method, template: op.path }));
    const at = methodsAt(operations, below, 'none');
    if (at) return at;
    if (o.forwardsUndocumented && !o.forwardsUndocumented(version)) return [];
  }
  const app = request.server;
  return app.supportedMethods.filter((method) => app.findRoute({ method: method as HTTPMethods, url: path }) !== null);
}

/** A known path asked with a method it does not serve: OPTIONS 204, any other 405, both with `Allow`. */
function methodAnswerAt(
  request: FastifyRequest,
  reply: FastifyReply,
  o: Parameters<typeof declaredMethodsAt>[1],
): FastifyReply | undefined {
  const declared = declaredMethodsAt(request, o);
  if (declared.length === 0) return undefined;
  // The method is served there: a handler found nothing (`/problems/no-such-problem`), a 404.
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (declared.includes(method)) return undefined;
  const allow = allowOf(declared);
  if (request.method === 'OPTIONS') return reply.code(204).header('allow', allow).send();
  return sendProblem(reply, methodNotAllowedProblem({ method: request.method, allow }));
}

/** Names unknown and removed versions, reads `Accept`, answers 405 for a served path, else 404. */
export function notFoundProblems(
  options: ProblemHandlingOptions,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  const supported = options.bundle.versions.map((v) => v.name);
  const scope = createApiScope(options.prefix);
  // The table's rules with the caller, where the table knows the version (a client's minimum version
  // first, then the version's removal or brownout, as core orders them), else the version's verdict.
  const versionProblem = async (request: FastifyRequest, name: string, source: 'path' | 'accept') => {
    const below = belowOf(scope, request.url.split('?')[0]!, source === 'path' ? name : undefined);
    const decided = await options.decided?.(request, { version: name, below, source });
    if (decided !== undefined) return decided ?? undefined;
    return (
      options.removedVersion?.(name) ??
      (options.bundle.byNumber(Number(name.slice(1))) ? undefined : unknownVersionProblem({ name, supported, source }))
    );
  };
  return async (request, reply) => {
    const path = request.url;
    const named = scope.versionOf(path);
    const problem = named ? await versionProblem(request, named, 'path') : undefined;
    if (problem) return sendProblem(reply, problem);
    if (stateOf(request).unversioned) {
      try {
        const { number } = resolveVersion({ accept: request.headers.accept, supported, vendor: options.vendor });
        const problem = await versionProblem(request, `v${number}`, 'accept');
        if (problem) return sendProblem(reply, problem);
      } catch (error) {
        return sendProblem(reply, fromFrameworkError(error) ?? internalError({ logged: logFailure(request, error) }));
      }
    }
    const bare = path.split('?')[0]!;
    const { forwardsUndocumented } = options;
    // A forwarded version's path no document declares, asked with a method the router routes nowhere.
    const undocumented = named !== undefined && forwardsUndocumented !== undefined && !forwardsUndocumented(named);
    return (
      methodAnswerAt(request, reply, { ...options, scope, path: bare }) ??
      sendProblem(
        reply,
        undocumented
          ? notServedProblem({ path: bare, version: named })
          : new VersionaryError({
              code: ErrorCode.NotFound,
              detail: `No resource at ${request.method} ${echo(bare)}.`,
            }),
      )
    );
  };
}
