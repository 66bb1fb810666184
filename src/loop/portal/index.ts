import type { FastifyInstance } from 'fastify';
import { createApiScope } from '../../http/api-scope.ts';
import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import { registerApiCatalogRoute } from './api-catalog-route.ts';
import { registerPortalAssets } from './assets.ts';
import { registerChangelogRoutes } from './changelog-routes.ts';
import { registerDocsPages, type DocsPagesOptions } from './docs-pages.ts';
import type { DashboardOptions } from './dashboard/options.ts';
import { registerDashboard } from './dashboard/routes.ts';
import { notFoundPageKey } from './not-found-page.ts';
import { notFoundPage } from './not-found-view.ts';

/** Options for {@link registerPortal}: what the docs and the dashboard read. */
export type PortalOptions = DashboardOptions & Pick<DocsPagesOptions, 'brownouts'>;

/**
 * The developer portal: docs per version with deprecation banners, the changelog and its feeds,
 * the API catalog, the signed-in dashboard (`/portal`), the assets they load and a readable 404
 * page for browsers, all served by the service.
 */
export function registerPortal(app: FastifyInstance, options: PortalOptions): void {
  registerPortalAssets(app);
  provideSteps(app, [[notFoundPageKey, { scope: createApiScope(options.prefix), page: notFoundPage(options.title) }]]);
  registerDocsPages(app, options);
  registerChangelogRoutes(app, options);
  registerApiCatalogRoute(app, options);
  void app.register((portal) => registerDashboard(portal, options), { prefix: '/portal' });
}
