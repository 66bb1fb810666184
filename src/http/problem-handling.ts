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
import { defineStep, stepKey } from './pipeline/step-definition.ts';
import { fromFrameworkError } from './fastify-errors.ts';
import { stateOf } from './pipeline/request-state.ts';
import { internalError, logFailure, sendProblem } from './problem.ts';

/** Options for {@link installProblemHandling}. */
export interface ProblemHandlingOptions {
  bundle: VersionBundle;
  prefix: string;
  vendor: string;
  /** A removed version (with or without code) answers with this error on paths that have no route. */
  removedVersion?: (name: string) => VersionaryError | undefined;
  /**
   * Answer the paths with no route too (default true). `false` leaves them to the app's own
   * not-found handler: the loop sets {@link notFoundProblems} only under the prefixes it owns.
   */
  notFound?: boolean;
  /**
   * Whether a version forwards the paths no document declares (`forwardUndocumented`): a forwarding
   * data plane's catch-all serves them then, with the version's methods. Any other version's
   * undocumented path is a 404 whatever the method, one the router has no route for included.
   */
  forwardsUndocumented?: (version: string) => boolean;
}

/**
 * Make every error of a context, from every route and from unknown routes, an RFC 9457 problem:
 * for an app that owns its root (the reference service, the gateway), beside the plugin, which
 * answers problems on its own routes and prefix only. Unknown versions are 404 naming the
 * published ones; an unversioned API path explains how to give a version. A 500 is logged in full
 * through the app's logger and answered without a stack trace or SQL; its detail says it was
 * logged only when that logger writes errors.
 */
export function installProblemHandling(app: FastifyInstance, options: ProblemHandlingOptions): void {
  app.setErrorHandler(problemErrorHandler);

  // Fastify has one not-found handler per prefix: this is the context's own, which only an app
  // that wants every unknown path a problem may set (the plugin answers under its prefix only).
  if (options.notFound !== false) app.setNotFoundHandler(notFoundProblems(options));
}

/**
 * Every error an RFC 9457 problem; a 500 is logged in full and answered without a stack trace.
 * The error handler of the contexts and routes that answer problems.
 */
export function problemErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = fromFrameworkError(error);
  if (known && known.code !== ErrorCode.Internal) return sendProblem(reply, known);
  const logged = logFailure(request, error, known ? 'internal error' : 'unhandled error');
  return sendProblem(reply, known ?? internalError({ logged }));
}

export const unversionedVaryKey = stepKey<object>('unversioned-vary');

/**
 * The `gate:unversioned-vary` step: `Vary: Accept` on every answer to an unversioned API path (its
 * version came from `Accept`), problems included: a gate step, before any step that may refuse the request.
 */
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

/**
 * The plugin's problems, in its lane: the routes registered while `register` runs get the problem
 * error handler as their own, and the unknown paths under the prefix get {@link notFoundProblems}
 * in a context of that prefix. The context's error and not-found handlers (the app's root ones
 * when the plugin is registered there) stay as the app set them, before or after.
 */
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
  // Its own context under the prefix: Fastify allows one not-found handler per prefix, so the
  // app's root handler, set before or after, is never touched. The context copies the hooks in
  // place now (the plugin's gate, and the app's registered before it).
  const handler = notFoundProblems(options);
  await app.register(
    async (scope) => {
      scope.setErrorHandler(problemErrorHandler);
      scope.setNotFoundHandler(handler);
    },
    { prefix: options.prefix },
  );
}

/**
 * The methods a path is served with: under a version, the methods its document's operations
 * declare there (core's `methodsAt`; the version's document is GET); elsewhere (the management API,
 * a forwarding catch-all), the methods the router has a route for there.
 */
function declaredMethodsAt(
  request: FastifyRequest,
  o: { bundle: VersionBundle; scope: ApiScope; path: string; forwardsUndocumented?: (version: string) => boolean },
): string[] {
  const { bundle, scope, path } = o;
  const version = scope.versionOf(path);
  const api = version === undefined ? undefined : bundle.byNumber(Number(version.slice(1)));
  if (version !== undefined && api) {
    const rest = path.slice(scope.prefix.length + 1 + version.length) || '/';
    const below = rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest;
    if (below === versionDocumentPath) return ['GET'];
    const operations = api.operations.map((op) => ({ method: op.method, template: op.path }));
    const at = methodsAt(operations, below, 'none');
    if (at) return at;
    if (o.forwardsUndocumented && !o.forwardsUndocumented(version)) return [];
  }
  const app = request.server;
  return app.supportedMethods.filter((method) => app.findRoute({ method: method as HTTPMethods, url: path }) !== null);
}

/**
 * A path the router knows, with a method it has no route for there (`PUT` on a document,
 * `PROPFIND`, which Fastify routes nowhere): OPTIONS is 204 with `Allow`, any other 405 with
 * `Allow` (core's `allowOf`); `undefined` for a path no route serves, or one served with this
 * method whose handler found nothing.
 */
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

/**
 * The not-found handler of {@link installProblemHandling}: an unknown or removed version is named,
 * an unversioned API path gets its version from `Accept`, a known path asked with a method it does
 * not serve is a 405 with `Allow` (OPTIONS a 204), anything else is a 404 problem.
 */
export function notFoundProblems(
  options: ProblemHandlingOptions,
): (request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  const supported = options.bundle.versions.map((v) => v.name);
  const scope = createApiScope(options.prefix);
  return (request, reply) => {
    const path = request.url;
    const named = scope.versionOf(path);
    const removed = named ? options.removedVersion?.(named) : undefined;
    if (removed) return sendProblem(reply, removed);
    if (named && !options.bundle.byNumber(Number(named.slice(1)))) {
      return sendProblem(reply, unknownVersionProblem({ name: named, supported, source: 'path' }));
    }
    if (stateOf(request).unversioned) {
      try {
        const { number } = resolveVersion({ accept: request.headers.accept, supported, vendor: options.vendor });
        const removed = options.removedVersion?.(`v${number}`);
        if (removed) return sendProblem(reply, removed);
        if (!options.bundle.byNumber(number)) {
          return sendProblem(reply, unknownVersionProblem({ name: `v${number}`, supported, source: 'accept' }));
        }
      } catch (error) {
        return sendProblem(reply, fromFrameworkError(error) ?? internalError({ logged: logFailure(request, error) }));
      }
    }
    const bare = path.split('?')[0]!;
    const { forwardsUndocumented } = options;
    // A forwarded version's path no document declares, asked with a method the router routes nowhere.
    const undocumented = named !== undefined && forwardsUndocumented !== undefined && !forwardsUndocumented(named);
    return (
      methodAnswerAt(request, reply, {
        bundle: options.bundle,
        scope,
        path: bare,
        ...(forwardsUndocumented ? { forwardsUndocumented } : {}),
      }) ??
      sendProblem(
        reply,
        undocumented
          ? notServedProblem({ method: request.method, path: bare, version: named, allowed: [] })
          : new VersionaryError({
              code: ErrorCode.NotFound,
              detail: `No resource at ${request.method} ${echo(bare)}.`,
            }),
      )
    );
  };
}
