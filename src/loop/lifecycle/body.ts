import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { cachingFeature } from './caching-feature.ts';
import { securityFeature } from './security-feature.ts';
import { lifecycleRoutesFeature } from './feature.ts';
import { manifestFeature } from './manifest-route.ts';
import { opsFeature } from './ops-feature.ts';
import { createResourcesFeature } from './api-feature.ts';
import { createForwardFeature } from './forward-feature.ts';
import { installFeatures } from '../host/install-features.ts';
import type { LoopState } from '../host/loop-state.ts';
import type { LoopLifecycleOptions } from './options.ts';
import { provideLifecycleRuntime, type LifecycleContext } from './context.ts';

/**
 * The lifecycle part's features, in the order a request meets their hooks (the API's first: its
 * removed gate). The API is the app's handlers, or, with `forward`, its upstreams (the gateway).
 */
export async function installLoopLifecycle(
  scope: FastifyInstance,
  state: LoopState,
  options: LoopLifecycleOptions,
): Promise<void> {
  const { handlers, forward, ownsApp = false } = options;
  if (!handlers === !forward)
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: forward
        ? 'versionary-loop-lifecycle takes handlers or forward, not both.'
        : 'versionary-loop-lifecycle needs handlers: one function per operation id of the bundle (or forward, to an upstream).',
    });
  const api = forward
    ? createForwardFeature(forward)
    : createResourcesFeature((context) => (typeof handlers === 'function' ? handlers(context) : handlers!), {
        ownsApp,
      });
  await provideLifecycleRuntime(scope, state.context);
  await installFeatures<LifecycleContext>(scope, state, {
    features: [api, opsFeature, securityFeature, cachingFeature, lifecycleRoutesFeature, manifestFeature],
    options: options.onVersionedRequest ? { onVersionedRequest: options.onVersionedRequest } : {},
  });
}
