import { cachingFeature } from './caching-feature.ts';
import { securityFeature } from './security-feature.ts';
import { lifecycleRoutesFeature } from './feature.ts';
import { opsFeature } from '../../kernel/ops/feature.ts';
import { createResourcesFeature } from './api-feature.ts';
import { installFeatures } from '../install-features.ts';
import type { LoopState } from '../loop-state.ts';
import type { LoopLifecycleOptions } from '../storage/part.ts';

/** The lifecycle part's features, in the order a request meets their hooks (the API's first: its removed gate). */
export async function installLoopLifecycle(state: LoopState, { handlers }: LoopLifecycleOptions): Promise<void> {
  const resources = createResourcesFeature(
    (context) => (typeof handlers === 'function' ? handlers(context) : handlers),
    {
      ownsApp: false,
    },
  );
  await installFeatures(
    state,
    [resources, opsFeature, securityFeature, cachingFeature, lifecycleRoutesFeature],
    'versionary-loop-lifecycle',
  );
}
