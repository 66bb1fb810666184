import type { FastifyInstance } from 'fastify';
import type { LifecycleSource } from '../../core/lifecycle/index.ts';
import { requestPipeline } from '../pipeline/request-pipeline.ts';
import type { VersionedRequestHook } from '../version-hooks.ts';

/**
 * The lifecycle's hook compiled only into the routes of a version or endpoint the lifecycle knows
 * (a current version with no deprecated endpoint has no headers to send, nothing to count, no
 * closing or exemption to honour), when the source can say so (`unscheduled`). A change of the
 * source's state (a deprecation scheduled through the management API, a refresh that found one,
 * a sunset passed) invalidates the compiled plans at once, so the next request compiles again.
 */
export function liveLifecycleHook(
  app: FastifyInstance,
  o: { prefix: string; lifecycle: LifecycleSource; hook: VersionedRequestHook },
): VersionedRequestHook {
  const { lifecycle, hook } = o;
  const unscheduled = lifecycle.unscheduled?.bind(lifecycle);
  if (!unscheduled || !lifecycle.onChange) return hook;
  const pipeline = requestPipeline(app, o.prefix);
  lifecycle.onChange(() => pipeline.invalidate());
  return Object.assign(hook, {
    appliesTo: (key: { version: string; method: string; path: string }) => !unscheduled(key),
  });
}
