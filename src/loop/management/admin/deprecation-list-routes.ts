import type { FastifyInstance } from 'fastify';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';
import type { UsageStore } from '../../../kernel/ports/index.ts';
import { listDeprecations } from './deprecation-list.ts';
import { listDeprecationsSchema } from './deprecation-list-schema.ts';

/** `GET /admin/v1/deprecations`: see {@link listDeprecations}. */
export function registerDeprecationListRoute(
  app: FastifyInstance,
  options: { runtime: LifecycleRuntime; usage: UsageStore; flushUsage: () => Promise<void> },
): void {
  app.get('/deprecations', { schema: listDeprecationsSchema }, async () => {
    // Buffered calls first, so the counts include every call made so far.
    await options.flushUsage();
    return { data: await listDeprecations(options) };
  });
}
