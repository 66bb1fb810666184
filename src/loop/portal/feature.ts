import cookie, { fastifyCookie } from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { createApiScope } from '../../http/api-scope.ts';
import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import type { ServiceFeature } from '../host/feature.ts';
import { createMemoryRateLimitStore } from '../../kernel/rate-limit/memory-store.ts';
import { createDiffCache } from '../lifecycle/breaks/diff-cache.ts';
import type { LifecycleContext } from '../lifecycle/context.ts';
import { rateLimitSection } from '../access/rate-limit/settings.ts';
import { noticesSection } from '../notices/settings.ts';

import { registerPortalAssets } from './assets.ts';
import { registerChangelogRoutes, registerFeedRoute } from './changelog-routes.ts';
import { registerApiCatalogRoute, registerDocsPages } from './docs-pages.ts';
import { notFoundPage } from './home-page.ts';
import { notFoundPageKey } from './not-found-page.ts';
import { pageRateLimitKey } from './page-rate-limit.ts';
import { portalSection } from './settings.ts';
import { registerBreaksRoute } from './dashboard/breaks-route.ts';
import { createDashboardKit, registerSignInRoutes } from './dashboard/dashboard-kit.ts';
import type { DashboardOptions } from './dashboard/options.ts';
import { sessionBudgetKey } from './dashboard/session-budget.ts';
import { createSessionCodec } from './dashboard/session.ts';
import { registerUsageRoutes } from './dashboard/usage-routes.ts';

/** The routes that check a secret a script could guess: the sign-in form, personal feeds, unsubscribe links. */
const guardedRoutes = new Set(['/portal/sign-in', '/portal/feed/:token', '/notices/unsubscribe']);
const guarded = {
  route: (url: string) => guardedRoutes.has(url),
  // The sign-in page itself is read freely; its form's POST checks the secret.
  request: (method: string, url: string) => url !== '/portal/sign-in' || method === 'POST',
};

/** Docs pages with banners, the changelog and its feeds, the api-catalog and the dashboards (`docs/portal.md`). */
export const portalFeature: ServiceFeature<LifecycleContext> = {
  name: 'portal',
  install: (context) => {
    const { app, bundle, runtime, clock, storage, config, api, options } = context;
    const store = options.rateLimitStore ?? createMemoryRateLimitStore();
    // One codec for the pages and the budget, which reads the same cookies before the pages do.
    const sessions = createSessionCodec({ clock, ...(config.portalSecret ? { secret: config.portalSecret } : {}) });
    provideSteps(app, [
      [pageRateLimitKey, { settings: rateLimitSection.of(config), store, clock, limited: guarded }],
      [
        sessionBudgetKey,
        { budget: portalSection.of(config).sessionBudget, store, clock, sessions, parseCookies: fastifyCookie.parse },
      ],
      [notFoundPageKey, { scope: createApiScope(api.prefix), page: notFoundPage(api.title) }],
    ]);
    const portal: DashboardOptions = {
      bundle,
      runtime,
      clock,
      prefix: api.prefix,
      title: api.title,
      storage,
      // Read per request: the notices part, which sets them, may come after the portal.
      brownouts: () => context.brownouts?.() ?? [],
      // Grants and declines from the dashboard tell the client as the management API's do.
      ...(context.decisionNotices ? { decisionNotices: context.decisionNotices } : {}),
      // Both buffers: the breaks page reads the per-operation counts, the rest the usage rollups.
      flushUsage: async () => {
        await Promise.all([context.recorder.flush(), context.operations?.flush()]);
      },
      publicUrl: noticesSection.of(config).publicUrl,
      ...(config.adminKey ? { adminKey: config.adminKey } : {}),
      sessions,
      // One diff per pair of versions and lifecycle generation, shared by every client's pages.
      diffs: createDiffCache({ clock, generation: () => runtime.generation() }),
    };
    registerPortalAssets(app);
    registerDocsPages(app, portal);
    registerChangelogRoutes(app, portal);
    registerApiCatalogRoute(app, portal);
    void app.register((scope) => registerDashboard(scope, portal), { prefix: '/portal' });
  },
};

/** The dashboard under `/portal`: sign-in with a key, a signed short-lived cookie, views by role. */
async function registerDashboard(portal: FastifyInstance, options: DashboardOptions): Promise<void> {
  await portal.register(cookie);
  await portal.register(formbody, { bodyLimit: 4096 });
  const kit = createDashboardKit(options);
  registerSignInRoutes(portal, kit);
  registerUsageRoutes(portal, kit);
  registerBreaksRoute(portal, kit);
  registerFeedRoute(portal, kit);
}
