import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { registerBreaksRoute } from './breaks-route.ts';
import { createDashboardKit } from './dashboard-kit.ts';
import { createDiffCache } from '../../lifecycle/breaks/diff-cache.ts';
import { registerFeedRoute } from './feed-route.ts';
import type { DashboardOptions } from './options.ts';
import { createPortalSessions } from './portal-sessions.ts';
import { createSessionCodec } from './session.ts';
import { registerSignInRoutes } from './sign-in-routes.ts';
import { registerUsageRoutes } from './usage-routes.ts';

/**
 * The dashboard under `/portal`: sign-in with an API key or the admin key, a signed short-lived
 * cookie, CSRF-checked forms, and the consumer or admin view by role.
 */
export async function registerDashboard(portal: FastifyInstance, given: DashboardOptions): Promise<void> {
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
