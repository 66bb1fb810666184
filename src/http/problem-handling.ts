import type { FastifyInstance } from 'fastify';
import { echo, ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { resolveVersion } from '../core/negotiation/index.ts';
import type { VersionBundle } from '../core/versions/index.ts';
import { createApiScope } from './api-scope.ts';
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
}

/**
 * Make every error, from every route and from unknown routes, an RFC 9457 problem. Unknown
 * versions are 404 naming the published ones; an unversioned API path explains how to give a
 * version. A 500 is logged in full through the app's logger and answered without a stack trace or
 * SQL; its detail says it was logged only when that logger writes errors.
 */
export function installProblemHandling(app: FastifyInstance, options: ProblemHandlingOptions): void {
  const supported = options.bundle.versions.map((v) => v.name);
  const scope = createApiScope(options.prefix);

  app.addHook('onRequest', async (request, reply) => {
    if (isUnversioned(request.raw)) reply.header('vary', 'Accept');
  });

  app.setErrorHandler((error, request, reply) => {
    const known = fromFrameworkError(error);
    if (known && known.code !== ErrorCode.Internal) return sendProblem(reply, known);
    const logged = logFailure(request, error, known ? 'internal error' : 'unhandled error');
    return sendProblem(reply, known ?? internalError({ logged }));
  });

  app.setNotFoundHandler((request, reply) => {
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
  });
}
