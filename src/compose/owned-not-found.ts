import { notFoundProblems } from '../http/problem-handling.ts';
import { removedVersionOf } from '../http/removed-gate.ts';
import type { ServiceContext, ServiceFeature } from '../service/app/feature.ts';

/** The path prefixes the loop owns beside its API prefix: the management API, the portal, its pages and links. */
export const ownedPrefixes = ['/admin', '/docs', '/portal', '/portal-assets', '/problems', '/notices'] as const;

/**
 * The loop's not-found answers, under the prefixes it owns only: the app keeps its root's
 * not-found handler, and Fastify allows one per prefix. Installed last, so that each prefix's
 * not-found context copies every hook the features added (the removed gate, security headers,
 * caching, limits, metrics): an unknown path under `/api` answers as it did when the loop set the
 * root's handler.
 */
export const ownedNotFoundFeature: ServiceFeature = {
  name: 'owned-not-found',
  install: (context) => installOwnedNotFound(context, [context.api.prefix, ...ownedPrefixes]),
};

/** The loop's not-found problems under `prefixes`, each in a context of its own (see {@link ownedNotFoundFeature}). */
export async function installOwnedNotFound(
  { app, bundle, runtime, api }: Pick<ServiceContext, 'app' | 'bundle' | 'runtime' | 'api'>,
  prefixes: readonly string[],
): Promise<void> {
  const handler = notFoundProblems({
    bundle,
    prefix: api.prefix,
    vendor: api.vendor,
    removedVersion: removedVersionOf(runtime),
  });
  for (const prefix of new Set(prefixes))
    await app.register(
      async (scope) => {
        scope.setNotFoundHandler(handler);
      },
      { prefix },
    );
}
