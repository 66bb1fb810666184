import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { echo, ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { resolveVersion } from '../core/negotiation/index.ts';
import type { VersionBundle } from '../core/versions/index.ts';
import { createApiScope } from './api-scope.ts';
import { requestPipeline } from './pipeline/request-pipeline.ts';
import { fromFrameworkError } from './fastify-errors.ts';
import { isUnversioned } from './negotiation.ts';
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
}

/**
 * Make every error, from every route and from unknown routes, an RFC 9457 problem. Unknown
 * versions are 404 naming the published ones; an unversioned API path explains how to give a
 * version. A 500 is logged in full through the app's logger and answered without a stack trace or
 * SQL; its detail says it was logged only when that logger writes errors.
 */
export function installProblemHandling(app: FastifyInstance, options: ProblemHandlingOptions): void {
  requestPipeline(app, options.prefix).add({
    name: 'unversioned-vary',
    phase: 'gate',
    run: (request, reply) => {
      if (isUnversioned(request.raw)) reply.header('vary', 'Accept');
    },
  });

  app.setErrorHandler((error, request, reply) => {
    const known = fromFrameworkError(error);
    if (known && known.code !== ErrorCode.Internal) return sendProblem(reply, known);
    const logged = logFailure(request, error, known ? 'internal error' : 'unhandled error');
    return sendProblem(reply, known ?? internalError({ logged }));
  });

  // Fastify has one not-found handler per prefix: set here, it is the root's when the plugin is
  // registered at the root, which only an app that wants every unknown path a problem may do.
  if (options.notFound !== false) app.setNotFoundHandler(notFoundProblems(options));
}

/**
 * The not-found handler of {@link installProblemHandling}: an unknown or removed version is named,
 * an unversioned API path gets its version from `Accept`, anything else is a 404 problem.
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
      return sendProblem(
        reply,
        new VersionaryError({
          code: ErrorCode.VersionUnknown,
          detail: `${echo(named)} is not a published version. Supported versions: ${supported.join(', ')}.`,
          extensions: { supportedVersions: supported },
        }),
      );
    }
    if (isUnversioned(request.raw)) {
      try {
        const { number } = resolveVersion({ accept: request.headers.accept, supported, vendor: options.vendor });
        const removed = options.removedVersion?.(`v${number}`);
        if (removed) return sendProblem(reply, removed);
        if (!options.bundle.byNumber(number)) {
          return sendProblem(
            reply,
            new VersionaryError({
              code: ErrorCode.VersionUnknown,
              detail: `Accept names v${number}, which is not a published version. Supported versions: ${supported.join(', ')}.`,
              extensions: { supportedVersions: supported },
            }),
          );
        }
      } catch (error) {
        return sendProblem(reply, fromFrameworkError(error) ?? internalError({ logged: logFailure(request, error) }));
      }
    }
    return sendProblem(
      reply,
      new VersionaryError({
        code: ErrorCode.NotFound,
        detail: `No resource at ${request.method} ${echo(path.split('?')[0]!)}.`,
      }),
    );
  };
}
