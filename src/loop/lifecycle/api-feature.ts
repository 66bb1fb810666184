import { tableLifecycleOf } from './decision-table/context-tables.ts';
import type { FastifyRequest } from 'fastify';
import { versionary, type CallEvent, type UsageEvent } from '../../http/plugin/index.ts';
import { installProblemHandling, type OperationHandler } from '../../http/index.ts';
import { removedVersionOf, unroutedDecisionOf } from '../../http/removed-gate.ts';
import type { ServiceFeature } from '../host/feature.ts';
import { clientIdOf, lifecycleClientOf, usageClientIdOf, usageIdentityOf } from '../../kernel/ports/principal.ts';
import { deferUsage } from '../usage/usage-step.ts';
import { serviceDocumentBuilder } from './openapi/feature.ts';
import type { LifecycleContext } from './context.ts';

/** What the API's plugin is registered with, handlers or forwarded alike; installs the context's problems. */
export function versionaryBase(
  context: LifecycleContext,
  problems: { notFound?: boolean; forwardsUndocumented?: (version: string) => boolean },
) {
  const { app, bundle, clock, recorder, operations, options, api } = context;
  const lifecycle = tableLifecycleOf(context);
  installProblemHandling(app, {
    bundle,
    prefix: api.prefix,
    vendor: api.vendor,
    removedVersion: removedVersionOf(lifecycle),
    decided: unroutedDecisionOf(lifecycle, clock, lifecycleClientOf),
    ...problems,
  });
  return {
    bundle,
    prefix: api.prefix,
    vendor: api.vendor,
    clientIdOf,
    clientOf: lifecycleClientOf,
    clock,
    lifecycle,
    // Written once the call is answered, and only if it was not refused (`after:usage`).
    onUsage: (call: UsageEvent, request: FastifyRequest) =>
      deferUsage(request, () => recorder.record({ ...call, ...usageIdentityOf(request) })),
    // Every call of every version, counted per operation and client for `versionary diff`.
    ...(operations
      ? {
          onCall: (call: CallEvent, request: FastifyRequest) =>
            deferUsage(request, () => operations.count(call, usageClientIdOf(request))),
        }
      : {}),
    onVersionedRequest: options.onVersionedRequest ?? [],
    // Unknown paths are the context's, or the prefixes' the loop installs last, once every hook is in.
    notFound: false,
  };
}

/** The API's operations through the `versionary` plugin (installed before access: its removed gate comes first). */
export function createResourcesFeature(
  handlers: (context: LifecycleContext) => Record<string, OperationHandler> | Promise<Record<string, OperationHandler>>,
  /** `ownsApp: false` in someone else's app (the loop): not its root's 404, no version list off the API. */
  placement: { ownsApp?: boolean } = {},
): ServiceFeature<LifecycleContext> {
  return {
    name: 'resources',
    async install(context) {
      const { api } = context;
      // The root's unknown paths answer problems when the service owns the app, never in someone else's.
      const ownsApp = placement.ownsApp !== false;
      await context.app.register(versionary, {
        ...versionaryBase(context, { notFound: ownsApp }),
        handlers: await handlers(context),
        // The service's richer documents come in through the plugin's document seam.
        openapi: {
          title: api.title,
          document: serviceDocumentBuilder(context),
          ...(api.openapiVersion ? { openapiVersion: api.openapiVersion } : {}),
        },
        // The loop sends the version list on the API only.
        ...(ownsApp ? {} : { versionListHeaders: 'api' as const }),
      });
    },
  };
}
