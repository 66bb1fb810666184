import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import { assertPublicWebhookUrl, createWebhookLookup } from './webhook-target.ts';
import type { LoopConfig } from '../host/config.ts';
import { noticesSection } from './settings.ts';
import { webhooksSection } from './webhook-settings.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { ExtendedAccessDecisionNotifier, Storage } from '../../kernel/ports/index.ts';
import type { Brownout } from '../../core/notices/index.ts';
import { brownoutListingKey, createBrownoutCache } from './brownout-guard.ts';
import { registerBrownoutAdminRoutes, registerRehearsalRoutes } from './brownout-routes.ts';
import { registerBrownoutScheduleRoute } from './brownout-schedule-route.ts';
import { checkChannels, type NoticeChannel } from './channel.ts';
import { createDecisionNotifier } from './decision-notices.ts';
import { createEmailChannel } from './email-channel.ts';
import { createPayloadBuilder } from './gather.ts';
import { registerNoticeAdminRoutes, registerUnsubscribeRoutes } from './notice-routes.ts';
import { unsubscribeUrl } from './unsubscribe-token.ts';
import { createWebhookChannel } from './webhook-channel.ts';
import { createNoticeWorker, type NoticeWorker } from './worker.ts';

/** Options for {@link registerNotices}. */
export interface RegisterNoticesOptions {
  config: LoopConfig;
  storage: Storage;
  runtime: LifecycleRuntime;
  bundle: VersionBundle;
  clock: Clock;
  flushUsage: () => Promise<void>;
  removedStatus: 410 | 404;
  apiPrefix: string;
  /** More channels beside email and webhooks (a chat tool, a pager): each a {@link NoticeChannel}. */
  channels?: readonly NoticeChannel[];
}

/**
 * The notices feature in one call: settings, brownout guard, worker, channels and routes. Call it
 * before the versioned API is registered, so its hook covers every route.
 */
export async function registerNotices(
  app: FastifyInstance,
  options: RegisterNoticesOptions,
): Promise<NoticeWorker & { brownouts: () => Brownout[]; decisionNotices: ExtendedAccessDecisionNotifier }> {
  const { config, storage, runtime, clock } = options;
  const [settings, webhookSettings] = [noticesSection.of(config), webhooksSection.of(config)];
  // Without a configured secret, links stay valid only while this process runs (logged below).
  const secret = config.noticeSecret ?? randomBytes(32).toString('base64url');
  if (!config.noticeSecret)
    app.log.warn('VERSIONARY_NOTICE_SECRET is not set: unsubscribe links in notices sent now stop working at restart');
  if (!config.smtp)
    app.log.info('VERSIONARY_SMTP_URL is not set: email notices are planned and kept, waiting for a mail transport');

  const cache = await createBrownoutCache({
    configured: settings.brownouts,
    load: () => storage.notices.listBrownouts(),
  });
  provideSteps(app, [[brownoutListingKey, { cache, clock, path: `${options.apiPrefix}/versions` }]]);

  // Planned in this order: one outbox row per channel and recipient.
  const channels: NoticeChannel[] = [
    createEmailChannel({
      ...(config.smtp ? { smtp: config.smtp } : {}),
      timeoutMs: config.ops.deliveryTimeoutMs,
      unsubscribeUrl: (clientId, email) =>
        unsubscribeUrl({ publicUrl: settings.publicUrl, secret, clientId, email, issuedAt: clock.now() }),
    }),
    createWebhookChannel({
      now: () => clock.now(),
      lookup: createWebhookLookup(webhookSettings),
      timeoutMs: config.ops.deliveryTimeoutMs,
      checkUrl: async (url) => {
        await assertPublicWebhookUrl({ url, settings: webhookSettings });
      },
      target: async (clientId, webhookId) =>
        (await storage.clients.find(clientId))?.webhooks.find((w) => w.id === webhookId),
    }),
    ...(options.channels ?? []),
  ];
  const channelErrors = checkChannels(channels);
  if (channelErrors.length > 0)
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: `The notice channels have ${channelErrors.length} error(s):\n- ${channelErrors.join('\n- ')}`,
    });
  const payloads = createPayloadBuilder({
    runtime,
    bundle: options.bundle,
    apiKeys: storage.apiKeys,
    publicUrl: settings.publicUrl,
    apiPrefix: options.apiPrefix,
  });
  const worker = createNoticeWorker({
    notices: storage.notices,
    usage: storage.usage,
    clients: storage.clients,
    runtime,
    settings,
    clock,
    channels,
    log: app.log,
    payloads,
    brownouts: async () => {
      await cache.refresh();
      return cache.all();
    },
    flushUsage: options.flushUsage,
    concurrency: config.ops.deliveryConcurrency,
    deliveryTimeoutMs: config.ops.deliveryTimeoutMs,
  });
  const refresher = setInterval(
    () => void cache.refresh().catch((error: unknown) => app.log.error({ err: error }, 'brownout refresh failed')),
    5000,
  );
  refresher.unref();
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => {
    clearInterval(refresher);
    await worker.stop();
  });

  const routes = {
    store: storage.notices,
    cache,
    runtime,
    clock,
    configured: settings.brownouts,
    clients: storage.clients,
    usage: storage.usage,
    flushUsage: options.flushUsage,
  };
  await app.register(
    async (admin) => {
      admin.removeContentTypeParser('text/plain'); // The management API takes JSON only: other bodies are 415.
      registerNoticeAdminRoutes(admin, { notices: storage.notices, worker });
      registerBrownoutAdminRoutes(admin, routes);
      registerBrownoutScheduleRoute(admin, routes);
    },
    { prefix: '/admin/v1' },
  );
  registerRehearsalRoutes(app, routes);
  registerUnsubscribeRoutes(app, { clients: storage.clients, notices: storage.notices, secret, clock });
  const notifier = createDecisionNotifier({
    notices: storage.notices,
    clients: storage.clients,
    runtime,
    payloads,
    channels,
    clock,
    // The decision's answer does not wait: the worker delivers in the background, as on its timer.
    nudge: () =>
      void worker.deliverQueued().catch((error: unknown) => app.log.error({ err: error }, 'notices delivery failed')),
  });
  // The decision is recorded before its notice is queued: a failure here is logged, never the decision's.
  const decisionNotices: ExtendedAccessDecisionNotifier = (decision) =>
    notifier(decision).catch((error: unknown) => app.log.error({ err: error }, 'decision notice not queued'));
  return { ...worker, brownouts: () => cache.all(), decisionNotices };
}
