import type { VersionBundle } from '../core/versions/index.ts';
import type { LoopAccessOptions } from './access/options.ts';
import type { LoopForward } from './lifecycle/forward-feature.ts';
import type { LoopLifecycleOptions } from './lifecycle/options.ts';
import type { LoopHost } from './storage/options.ts';
import type { ServiceContext, ServiceFeature } from './host/feature.ts';

/**
 * A product built of the loop's parts, as a value: what its API is (the bundle, where it lives and
 * what its documents say), where the API's answers come from (the app's handlers, or forwarding
 * to upstreams), what it sets of the parts' options, and the features it adds beside them. The
 * reference service and the gateway are two products; `src/compose` builds an app from either
 * without asking which it is.
 */
export interface LoopProduct {
  bundle: VersionBundle;
  api: ServiceContext['api'];
  /** The lifecycle part's API source: the app's handlers, or forwarding to upstreams. */
  source: { handlers: NonNullable<LoopLifecycleOptions['handlers']> } | { forward: LoopForward };
  /** The parts' options this product sets (its release dates, who may call, what is deprecated at first start). */
  defaults: Pick<LoopAccessOptions, 'identify' | 'jwtRoles' | 'idempotency'> &
    Pick<LoopHost, 'releases' | 'defaultDeprecated'>;
  /** Installed after the parts, with their context (the reference service's `/` page). */
  features: readonly ServiceFeature[];
}
