import type { FastifyInstance } from 'fastify';
import type { LifecycleSource } from '../../core/lifecycle/index.ts';
import { notFoundProblems } from '../../http/problem-handling.ts';
import { removedVersionOf } from '../../http/removed-gate.ts';
import type { ServiceContext } from './feature.ts';
import { providedIn } from './provided.ts';

/** The loop's not-found answers under `prefixes`, each in its own context, which copies the hooks before it. */
export async function installOwnedNotFound(
  scope: FastifyInstance,
  { app, bundle, api }: Pick<ServiceContext, 'app' | 'bundle' | 'api'>,
  prefixes: readonly string[],
): Promise<void> {
  if (prefixes.length === 0) return;
  const runtime = providedIn(scope).runtime as LifecycleSource;
  const handler = notFoundProblems({
    bundle,
    prefix: api.prefix,
    vendor: api.vendor,
    removedVersion: removedVersionOf(runtime),
  });
  for (const prefix of new Set(prefixes))
    await app.register(
      async (child) => {
        child.setNotFoundHandler(handler);
      },
      { prefix },
    );
}
