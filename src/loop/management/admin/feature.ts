import type { ServiceFeature } from '../../host/feature.ts';
import { registerExemptionRoutes } from '../exemptions/exemption-routes.ts';
import { registerExemptionRequestRoutes } from '../exemptions/request-routes.ts';
import { registerApprovalRoutes } from '../approvals/approval-routes.ts';
import { installClients } from '../clients/install-clients.ts';
import { registerApiKeyRoutes } from './api-key-routes.ts';
import { registerDeprecationListRoute } from './deprecation-list-routes.ts';
import { registerDecisionTableRoute } from './decision-table-route.ts';
import { createDecisionTables } from '../../lifecycle/decision-table/tables.ts';
import { allowedPastClosing } from '../../lifecycle/decision-table/allowed-past.ts';
import { provideDecisionTables } from '../../lifecycle/decision-table/provided.ts';
import { registerEndpointAdminRoutes } from './endpoint-routes.ts';
import { registerVersionAdminRoutes } from './version-routes.ts';

/** The management API under `/admin/v1`: keys, clients, versions, endpoints, approvals, and everything deprecated. */
export const adminFeature: ServiceFeature = {
  name: 'admin',
  async install(context) {
    const { app, storage, clock, config, runtime, recorder, operations, bundle, api, decisionNotices } = context;
    const { lifecycle: settings, usage, webhooks } = config.settings;
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
        });
        const shared = { runtime, lifecycle: storage.lifecycle, settings, clock };
        registerVersionAdminRoutes(admin, { ...shared, usage: storage.usage, flushUsage: () => recorder.flush() });
        registerEndpointAdminRoutes(admin, { ...shared, bundle });
        registerApprovalRoutes(admin, { approvals: storage.approvals, apiKeys: storage.apiKeys, clock });
        registerExemptionRoutes(admin, { storage, runtime, clock });
        registerExemptionRequestRoutes(admin, {
          storage,
          runtime,
          clock,
          ...(decisionNotices ? { decisionNotices } : {}),
        });
        registerDeprecationListRoute(admin, { runtime, usage: storage.usage, flushUsage: () => recorder.flush() });
        const tables = createDecisionTables(
          {
            runtime,
            bundle,
            prefix: api.prefix,
            vendor: api.vendor,
            removedStatus: settings.removedStatus,
            exemptions: () => storage.exemptions.list(),
            ...(context.brownouts ? { brownouts: context.brownouts } : {}),
            allowed: allowedPastClosing({ usage: storage.usage, flush: () => recorder.flush() }),
            rateLimit: config.settings.rateLimit,
          },
          clock,
        );
        registerDecisionTableRoute(admin, { tables });
        // The same tables (one generation count) for a data plane that is pushed them: nginx.
        provideDecisionTables(app, tables);
      },
      { prefix: '/admin/v1' },
    );
  },
};
