import type { FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { defineHandlers, versionary, type CallEvent } from '../../http/plugin/index.ts';
import { installProblemHandling, type OperationHandler } from '../../http/index.ts';
import { removedVersionOf } from '../../http/removed-gate.ts';
import { apiHead } from '../api/index.ts';
import type { ServiceContext, ServiceFeature } from '../../kernel/app/feature.ts';
import { clientIdOf, usageClientIdOf, usageIdentityOf } from '../../loop/access/auth/principal.ts';
import { serviceDocumentBuilder } from '../../loop/lifecycle/openapi/feature.ts';
import { emittedParameterProblems } from './paging.ts';
import { createPostHandlers } from './posts.ts';
import { createUserHandlers } from './users.ts';

/**
 * The API's operations, through the same plugin library users register, fed by the stored
 * lifecycle, with usage recorded per client: `handlers` gives one handler per operation id. The
 * plugin also answers removed versions and endpoints (in `onRequest`, before authentication: it
 * is installed before the access feature), makes every error a problem, and sends the version
 * list headers and the lifecycle document.
 */
export function createResourcesFeature(
  handlers: (context: ServiceContext) => Record<string, OperationHandler> | Promise<Record<string, OperationHandler>>,
  /** `ownsApp: false` in someone else's app (the loop): not its root's 404, no version list off the API. */
  placement: { ownsApp?: boolean } = {},
): ServiceFeature {
  return {
    name: 'resources',
    async install(context) {
      const { app, bundle, clock, runtime, recorder, operations, options, api } = context;
      // Every route of the context answers problems (the plugin's own answer them in any app);
      // the root's unknown paths too when the service owns the app, never in someone else's.
      const ownsApp = placement.ownsApp !== false;
      installProblemHandling(app, {
        bundle,
        prefix: api.prefix,
        vendor: api.vendor,
        removedVersion: removedVersionOf(runtime),
        notFound: ownsApp,
      });
      await app.register(versionary, {
        bundle,
        handlers: await handlers(context),
        prefix: api.prefix,
        vendor: api.vendor,
        clientIdOf,
        clock,
        lifecycle: runtime,
        onUsage: (call, request) => recorder.record({ ...call, ...usageIdentityOf(request) }),
        // Every call of every version, counted per operation and client for `versionary diff`.
        ...(operations
          ? {
              onCall: (call: CallEvent, request: FastifyRequest) => operations.count(call, usageClientIdOf(request)),
            }
          : {}),
        onVersionedRequest: options.onVersionedRequest ?? [],
        // The plugin's own problems, version list headers, lifecycle document and removed gate;
        // the service's richer documents come in through its document seam.
        openapi: { title: api.title, document: serviceDocumentBuilder(context) },
        // Unknown paths are the context's (above), or, in the loop, the prefixes' it installs last,
        // once every feature's hooks are in. The loop sends the version list on the API only.
        notFound: false,
        ...(ownsApp ? {} : { versionListHeaders: 'api' as const }),
      });
    },
  };
}

/**
 * The reference service's users and posts, each handler typed from its operation in the head.
 * Their tables are the reference service's own app tables, migrated here, when it installs: the
 * loop and the gateway put their own operations in place of this feature, and never create them.
 */
export const resourcesFeature = createResourcesFeature(async ({ storage, clock, runtime, bundle }) => {
  // Refused before the tables are made: a deprecated parameter the service's own links carry.
  const problems = emittedParameterProblems({ elements: runtime.elements(), bundle });
  if (problems.length > 0)
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: `The lifecycle's parameter deprecations have ${problems.length} error(s):\n- ${problems.join('\n- ')}`,
      errors: problems.map((detail) => ({ pointer: '/parameterDeprecations', detail })),
    });
  const { users, posts } = await storage.resources();
  return defineHandlers(apiHead, {
    ...createUserHandlers({ users, clock }),
    ...createPostHandlers({ users, posts, clock }),
  });
});

/**
 * The reference API's routes without its tables, for an app built only to answer the management
 * API in process (the CLI without `--server`): every users and posts operation is a 404, and the
 * database it opens, which may be a loop's, never gets users and posts.
 */
export const resourcesWithoutTablesFeature = createResourcesFeature(() =>
  Object.fromEntries(
    apiHead.operations.map((op): [string, OperationHandler] => [
      op.id,
      async () => {
        throw new VersionaryError({ code: ErrorCode.NotFound, detail: 'Only the management API is served here.' });
      },
    ]),
  ),
);
