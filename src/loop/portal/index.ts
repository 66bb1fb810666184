import type { FastifyInstance } from 'fastify';
import { createApiScope } from '../../http/api-scope.ts';
import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import { registerApiCatalogRoute } from './api-catalog-route.ts';
import { registerPortalAssets } from './assets.ts';
import { registerChangelogRoutes } from './changelog-routes.ts';
import { registerDocsPages, type DocsPagesOptions } from './docs-pages.ts';
import type { DashboardOptions } from './dashboard/options.ts';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { createDiffCache } from '../lifecycle/breaks/diff-cache.ts';
import { registerBreaksRoute } from './dashboard/breaks-route.ts';
import { createDashboardKit } from './dashboard/dashboard-kit.ts';
import { registerFeedRoute } from './dashboard/feed-route.ts';
import { createPortalSessions } from './dashboard/portal-sessions.ts';
import { createSessionCodec } from './dashboard/session.ts';
import { registerSignInRoutes } from './dashboard/sign-in-routes.ts';
import { registerUsageRoutes } from './dashboard/usage-routes.ts';
import { notFoundPageKey } from './not-found-page.ts';
import { notFoundPage } from './home-page.ts';

export type PortalOptions = DashboardOptions & Pick<DocsPagesOptions, 'brownouts'>;

/** The developer portal: docs, changelog and feeds, API catalog, dashboard, assets, 404 page. */
export function registerPortal(app: FastifyInstance, options: PortalOptions): void {
  registerPortalAssets(app);
  provideSteps(app, [[notFoundPageKey, { scope: createApiScope(options.prefix), page: notFoundPage(options.title) }]]);
  registerDocsPages(app, options);
  registerChangelogRoutes(app, options);
  registerApiCatalogRoute(app, options);
  void app.register((portal) => registerDashboard(portal, options), { prefix: '/portal' });
}

/** The dashboard under `/portal`: sign-in with a key, a signed short-lived cookie, views by role. */
async function registerDashboard(portal: FastifyInstance, given: DashboardOptions): Promise<void> {
  // One diff per pair of versions and lifecycle generation, shared by every client's pages.
  const options: DashboardOptions = {
    ...given,
    diffs: given.diffs ?? createDiffCache({ clock: given.clock, generation: () => given.runtime.generation() }),
  };
  await portal.register(cookie);
  await portal.register(formbody, { bodyLimit: 4096 });
  const codec =
    options.sessions ??
    createSessionCodec({ clock: options.clock, ...(options.secret ? { secret: options.secret } : {}) });
  const kit = createDashboardKit(options, { codec, sessions: createPortalSessions(options, codec) });
  registerSignInRoutes(portal, kit);
  registerUsageRoutes(portal, kit);
  registerBreaksRoute(portal, kit);
  registerFeedRoute(portal, kit);
}
