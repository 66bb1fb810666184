import type { FastifyServerOptions } from 'fastify';
import { echo, ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import {
  createVersionRewriter,
  fromFrameworkError,
  handleClientError,
  reservedSegments,
  sendProblem,
} from '../../http/index.ts';
import { strictRequestError } from '../../http/request-target.ts';
import { requestHeadLimit } from './request-head.ts';
import { requestIdOf } from '../ops/request-id.ts';

/**
 * The Fastify construction options the service's features expect: `Accept` negotiation, request
 * ids, problems for parser and router failures, and strict validation (no coercion, no silent
 * removal of unknown properties, every error at once). Fastify takes them at construction, before
 * any plugin, so an app that registers the loop spreads them into `Fastify()` itself.
 */
export function serviceServerOptions(options: {
  bundle: VersionBundle;
  api: { prefix: string; vendor: string };
}): FastifyServerOptions {
  const { bundle, api } = options;
  return {
    // Parser errors (431, 408, bad chunking, request smuggling attempts) are problems too.
    clientErrorHandler: handleClientError,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    genReqId: requestIdOf,
    requestIdHeader: false,
    // A parameter of any length the server reads matches its template (the request line is part of
    // the 64 KiB head the server takes): a long id on a removed endpoint is that endpoint's 410,
    // never a miss. Routes have no regular-expression parameters for the bound to protect.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: requestHeadLimit },
    // Router failures on an ambiguous target (a bad `%` escape) are a 400, as in every hook after
    // routing; the rest (oversized parameters) name no resource: a 404 problem.
    frameworkErrors: (error, request, reply) =>
      sendProblem(
        reply,
        strictRequestError(request.raw) ??
          fromFrameworkError(error) ??
          new VersionaryError({
            code: ErrorCode.NotFound,
            detail: `No resource at ${echo(request.url.split('?')[0]!)}.`,
          }),
      ),
    rewriteUrl: createVersionRewriter({
      bundle,
      prefix: api.prefix,
      vendor: api.vendor,
      reserved: [...reservedSegments],
    }),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: true } },
  };
}
