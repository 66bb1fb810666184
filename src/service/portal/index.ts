import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import { registerApiCatalogRoute } from './api-catalog-route.ts';
import { registerPortalAssets } from './assets.ts';
import { registerChangelogRoutes } from './changelog-routes.ts';
import { registerDocsPages } from './docs-pages.ts';

/** Options for {@link registerPortal}. */
export interface PortalOptions {
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
  clock: Clock;
  /** Prefix of the versioned API, for example `/api`. */
  prefix: string;
}

/**
 * The developer portal's public half: docs per version with deprecation banners, the changelog
 * and its feeds, the API catalog, and the assets they load (all served by the service).
 *
 * @example
 * ```ts
 * registerPortal(app, { bundle, runtime, clock, prefix: '/api' });
 * ```
 */
export function registerPortal(app: FastifyInstance, options: PortalOptions): void {
  registerPortalAssets(app);
  registerDocsPages(app, options);
  registerChangelogRoutes(app, options);
  registerApiCatalogRoute(app, options);
}
