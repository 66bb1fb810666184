import type { VersionBundle } from '../core/versions/index.ts';
import { apiPrefix, builtInReleases, vendor } from '../kernel/app/names.ts';
import { configError } from '../kernel/config/load-config.ts';
import type { ServiceConfig } from '../loop/settings.ts';
import type { LoopProduct } from '../loop/product.ts';
import type { LoopLifecycleOptions } from '../loop/lifecycle/options.ts';
import { createApiBundle } from './api/index.ts';
import { referenceApiInfo } from './api-info.ts';
import { referenceHandlers } from './resources/feature.ts';
import { rootFeature } from './root-feature.ts';

/**
 * The reference service as a product: users and posts, served by their handlers, with the built-in
 * versions' release dates and the `/` page. Tests give a bundle of their own to add a version; the
 * CLI's management client gives handlers that need no tables.
 */
export function referenceProduct(
  overrides: { bundle?: VersionBundle; handlers?: NonNullable<LoopLifecycleOptions['handlers']> } = {},
): LoopProduct {
  return {
    bundle: overrides.bundle ?? createApiBundle(),
    api: { prefix: apiPrefix, vendor, title: 'Versionary users and posts API', info: referenceApiInfo },
    source: { handlers: overrides.handlers ?? referenceHandlers },
    defaults: { releases: builtInReleases },
    features: [rootFeature],
  };
}

/** The reference service's product for a configuration: one with a gateway section is refused. */
export async function composeReference(config: ServiceConfig): Promise<LoopProduct> {
  if (config.settings.gateway)
    throw configError([
      'The config file has a "gateway" section: start it with `versionary gateway`, not the reference service.',
    ]);
  return referenceProduct();
}
