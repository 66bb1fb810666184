import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/clock/index.ts';
import type { Storage } from '../../../kernel/ports/index.ts';
import { startRawRetention } from '../../usage/raw-retention.ts';
import { registerOperationUsageRoute } from '../../usage/operation-routes.ts';
import { registerUsageRoutes } from '../../usage/usage-routes.ts';
import type { UsageSettings } from '../../usage/settings.ts';
import { registerClientRoutes } from './client-routes.ts';
import type { MinimumVersionOptions } from './minimum-version.ts';
import type { WebhookSettings } from '../../notices/webhook-settings.ts';

/** The config file's `webhooks` and `usage` keys, parsed. */
export interface ClientSettings {
  webhooks: WebhookSettings;
  usage: UsageSettings;
}

/**
 * Register, in the management API's scope, the client routes and the per-client usage routes,
 * the usage of every version per operation, and keep raw usage events and operation counts
 * within their retention while the app runs.
 */
export function installClients(
  admin: FastifyInstance,
  options: {
    storage: Storage;
    settings: ClientSettings;
    clock: Clock;
    flushUsage: () => Promise<void>;
    /** Writes the per-operation counts still in memory. */
    flushOperations: () => Promise<void>;
    /** The API prefix, for the operation usage's `meta.prefix`. */
    prefix: string;
    minimumVersion: MinimumVersionOptions;
  },
): void {
  const { storage, settings, clock } = options;
  registerClientRoutes(admin, {
    clients: storage.clients,
    apiKeys: storage.apiKeys,
    webhooks: settings.webhooks,
    clock,
    minimumVersion: options.minimumVersion,
  });
  registerUsageRoutes(admin, {
    usage: storage.usage,
    clients: storage.clients,
    apiKeys: storage.apiKeys,
    clock,
    flushUsage: options.flushUsage,
  });
  registerOperationUsageRoute(admin, {
    usage: storage.usage,
    clients: storage.clients,
    clock,
    prefix: options.prefix,
    flush: options.flushOperations,
  });
  // With a retention of 0 this removes whatever raw events (or operation counts) an earlier configuration kept.
  const stop = startRawRetention({
    store: storage.usage,
    rawRetentionDays: settings.usage.rawRetentionDays,
    operationRetentionDays: settings.usage.operationRetentionDays,
    clock,
    log: admin.log,
  });
  admin.addHook('onClose', stop);
}
