import { notFoundProblems } from '../../http/problem-handling.ts';
import { removedVersionOf } from '../../http/removed-gate.ts';
import type { ServiceContext } from './feature.ts';
import type { LoopPartName } from './loop-state.ts';

/**
 * The path prefixes each part of the loop owns beside the API's (the lifecycle part's): the
 * management API (its document comes with access), the portal, the notices' links, the problem pages.
 */
const ownedPrefixes: Readonly<Partial<Record<LoopPartName, readonly string[]>>> = {
  'versionary-loop-lifecycle': ['/problems'],
  'versionary-loop-access': ['/admin'],
  'versionary-loop-notices': ['/notices'],
  'versionary-loop-portal': ['/docs', '/portal', '/portal-assets'],
};

/**
 * The loop's not-found answers under the prefixes `parts` own, each in a context of its own, and
 * only there: the app keeps its root's not-found handler, and Fastify allows one per prefix. Each
 * context copies the hooks registered before it, so the preset installs them last, once every
 * part's hooks (the removed gate, security headers, caching, limits, metrics) are in.
 */
export async function installOwnedNotFound(
  { app, bundle, runtime, api }: Pick<ServiceContext, 'app' | 'bundle' | 'runtime' | 'api'>,
  parts: readonly LoopPartName[],
): Promise<void> {
  const prefixes = parts.flatMap((part) => [
    ...(part === 'versionary-loop-lifecycle' ? [api.prefix] : []),
    ...(ownedPrefixes[part] ?? []),
  ]);
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
