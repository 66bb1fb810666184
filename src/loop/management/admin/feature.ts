import type { ServiceFeature } from '../../host/feature.ts';
import { registerExtendedAccessRoutes } from '../../lifecycle/extended-access/grant-routes.ts';
import { registerExtendedAccessRequestRoutes } from '../../lifecycle/extended-access/request-routes.ts';
import { registerApprovalRoutes } from '../approvals/approval-routes.ts';
import { installClients } from '../clients/install-clients.ts';
import { registerApiKeyRoutes } from './api-key-routes.ts';
import { registerDeprecationListRoute } from './deprecation-list-routes.ts';
import { registerDecisionTableRoute } from './decision-table-route.ts';
import { decisionTablesOf } from '../../lifecycle/decision-table/context-tables.ts';
import { registerEndpointAdminRoutes } from './endpoint-routes.ts';
import { registerVersionAdminRoutes } from './version-routes.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';
import { lifecycleSection } from '../../lifecycle/settings.ts';
import { usageSection } from '../../usage/settings.ts';
import { webhooksSection } from '../../notices/webhook-settings.ts';

/** The management API under `/admin/v1`: keys, clients, versions, endpoints, approvals, and everything deprecated. */
export const adminFeature: ServiceFeature<LifecycleContext> = {
  name: 'admin',
  async install(context) {
    const { app, storage, clock, config, runtime, recorder, operations, bundle, api, decisionNotices } = context;
    const [settings, usage, webhooks] = [
      lifecycleSection.of(config),
      usageSection.of(config),
      webhooksSection.of(config),
    ];
    await app.register(
      async (admin) => {
        admin.removeContentTypeParser('text/plain'); // The management API takes JSON only: other bodies are 415.
        registerApiKeyRoutes(admin, {
          apiKeys: storage.apiKeys,
          clients: storage.clients,
          clock,
          envAdminKey: config.adminKey !== undefined,
        });
        installClients(admin, {
          storage,
          settings: { usage, webhooks },
          clock,
          flushUsage: () => recorder.flush(),
          flushOperations: async () => operations?.flush(),
          prefix: api.prefix,
          minimumVersion: {
            versions: () => runtime.versions().map((v) => v.name),
            tableMoved: () => decisionTablesOf(context).current(),
          },
        });
        const shared = { runtime, lifecycle: storage.lifecycle, settings, clock };
        registerVersionAdminRoutes(admin, { ...shared, usage: storage.usage, flushUsage: () => recorder.flush() });
        registerEndpointAdminRoutes(admin, { ...shared, bundle });
        registerApprovalRoutes(admin, { approvals: storage.approvals, apiKeys: storage.apiKeys, clock });
        registerExtendedAccessRoutes(admin, { storage, runtime, clock });
        registerExtendedAccessRequestRoutes(admin, {
          storage,
          runtime,
          clock,
          ...(decisionNotices ? { decisionNotices } : {}),
        });
        registerDeprecationListRoute(admin, { runtime, usage: storage.usage, flushUsage: () => recorder.flush() });
        registerDecisionTableRoute(admin, { tables: decisionTablesOf(context) });
      },
      { prefix: '/admin/v1' },
    );
  },
};
