import type { FastifyInstance } from 'fastify';
import type { LifecycleSource } from '../core/lifecycle/index.ts';
import { requestPipeline } from './pipeline/request-pipeline.ts';
import type { VersionedRequestHook } from './versioned-api-options.ts';

type Key = { version: string; method: string; path: string };
const subscribed = new WeakMap<LifecycleSource, WeakSet<object>>();

/**
 * Whether a key has a lifecycle at all, for a step's `appliesTo`; `undefined` when the source cannot
 * say. A change of the source's state invalidates the server's compiled plans at once.
 */
function scheduledKeys(
  app: FastifyInstance,
  o: { prefix: string; lifecycle: LifecycleSource },
): ((key: Key) => boolean) | undefined {
  const { lifecycle } = o;
  const unscheduled = lifecycle.unscheduled?.bind(lifecycle);
  if (!unscheduled || !lifecycle.onChange) return undefined;
  // One subscription per source and server: invalidating clears every pipeline of the server.
  let servers = subscribed.get(lifecycle);
  if (!servers) subscribed.set(lifecycle, (servers = new WeakSet()));
  if (!servers.has(app.server)) {
    servers.add(app.server);
    const pipeline = requestPipeline(app, o.prefix);
    lifecycle.onChange(() => pipeline.invalidate());
  }
  return (key) => !unscheduled(key);
}

/** The lifecycle's hook, compiled only into the routes of a version or endpoint the lifecycle knows. */
export function liveLifecycleHook(
  app: FastifyInstance,
  o: { prefix: string; lifecycle: LifecycleSource; hook: VersionedRequestHook },
): VersionedRequestHook {
  const scheduled = scheduledKeys(app, o);
  return scheduled ? Object.assign(o.hook, { appliesTo: scheduled }) : o.hook;
}
