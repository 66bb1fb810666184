import type { ServiceFeature } from '../../host/feature.ts';
import { registerExtendedAccessRoutes } from '../../lifecycle/extended-access/grant-routes.ts';
import { registerExtendedAccessRequestRoutes } from '../../lifecycle/extended-access/request-routes.ts';
import { registerApprovalRoutes } from '../approvals/approval-routes.ts';
import { registerClientRoutes } from '../clients/client-routes.ts';
import { startRawRetention } from '../../usage/raw-retention.ts';
import { registerUsageRoutes } from '../../usage/usage-routes.ts';
import { registerApiKeyRoutes } from './api-key-routes.ts';
import { registerDeprecationListRoute } from './deprecation-list.ts';
import { adminRoute } from '../../host/admin-route-schemas.ts';
import { decisionTablesOf } from '../../lifecycle/decision-table/context-tables.ts';
import { registerVersionAdminRoutes } from './version-routes.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';
import { usageSection } from '../../usage/settings.ts';

/** The management API under `/admin/v1`: keys, clients, versions, endpoints, approvals, and everything deprecated. */
export const adminFeature: ServiceFeature<LifecycleContext> = {
  name: 'admin',
  async install(context) {
    const { app, storage, clock, config } = context;
    const retention = usageSection.of(config);
    await app.register(
      async (admin) => {
        admin.removeContentTypeParser('text/plain'); // The management API takes JSON only: other bodies are 415.
        registerApiKeyRoutes(admin, context);
        registerClientRoutes(admin, context);
        registerUsageRoutes(admin, context);
        // With a retention of 0 this removes whatever raw events (or operation counts) an earlier configuration kept.
        admin.addHook('onClose', startRawRetention({ ...retention, store: storage.usage, clock, log: admin.log }));
        registerVersionAdminRoutes(admin, context);
        registerApprovalRoutes(admin, context);
        registerExtendedAccessRoutes(admin, context);
        registerExtendedAccessRequestRoutes(admin, context);
        registerDeprecationListRoute(admin, context);
        // The decision table, to admin keys, with its generation as the `ETag`.
        const tables = decisionTablesOf(context);
        admin.get('/decision-table', { schema: decisionTableSchema }, async (_request, reply) => {
          const table = await tables.current();
          // The caching step answers 304 on a matching If-None-Match, and keeps this tag.
          reply.header('etag', `"${table.generation}"`);
          return table;
        });
      },
      { prefix: '/admin/v1' },
    );
  },
};

const decisionTableSchema = adminRoute({
  operationId: 'decisionTable.get',
  summary: 'The decision table every data plane enforces',
  tags: ['documents'],
  description:
    'The request rules compiled from the live lifecycle (versions, schedules, endpoint and element deprecations, extended access per client, closings to new clients, brownouts, rate-limit policies), with every header value and problem pre-rendered: what the service, the gateway and nginx decide each request from (`docs/decision-table.md`). Its `ETag` is the generation; `If-None-Match` answers 304 while it has not moved. One document, not a collection: its path is singular (`x-lint-skip`).',
  'x-lint-skip': ['collection-not-plural'],
  response: {
    200: {
      type: 'object',
      description: 'The decision table, format 1',
      properties: {
        format: { type: 'integer', format: 'int32', minimum: 1, maximum: 1 },
        generation: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        compiledAt: { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['format', 'generation', 'compiledAt'],
      additionalProperties: true,
    },
  },
});
