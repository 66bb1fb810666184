import { randomBytes } from 'node:crypto';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import { assertPublicWebhookUrl, createWebhookLookup } from './webhook-target.ts';
import { noticesSection } from './settings.ts';
import { webhooksSection } from './webhook-settings.ts';
import { brownoutListingKey, createBrownoutCache } from './brownout-guard.ts';
import { registerBrownoutAdminRoutes, registerRehearsalRoutes } from './brownout-routes.ts';
import { checkChannels, type NoticeChannel } from './channel.ts';
import { createEmailChannel } from './email-channel.ts';
import { createPayloadBuilder, noticeSubjects } from './gather.ts';
import { registerNoticeAdminRoutes, registerUnsubscribeRoutes } from './notice-routes.ts';
import { unsubscribeUrl } from './unsubscribe-token.ts';
import { createWebhookChannel } from './webhook-channel.ts';
import { createNoticeWorker } from './worker.ts';
import type { ServiceFeature } from '../host/feature.ts';
import type { LifecycleContext } from '../lifecycle/context.ts';
import type { LoopNoticesOptions } from './options.ts';
import { earlierNames } from '../../core/earlier-names.ts';
import { dueNotice, subjectId } from '../../core/notices/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import type { ExtendedAccessDecisionNotifier } from '../../kernel/ports/index.ts';
import { enqueueNotice } from './plan-outbox.ts';

export type NoticesContext = LifecycleContext & { options: LoopNoticesOptions };

/**
 * Notices by email, webhooks and the app's own channels; brownouts and rehearsals (`docs/notices.md`).
 * Installed before the versioned API is registered, so its hook covers every route.
 */
export const noticesFeature: ServiceFeature<NoticesContext> = {
  name: 'notices',
  async install(context) {
    const { app, config, storage, runtime, bundle, clock, recorder, options, api } = context;
    const flushUsage = () => recorder.flush();
    const [settings, webhookSettings] = [noticesSection.of(config), webhooksSection.of(config)];
    // Without a configured secret, links stay valid only while this process runs (logged below).
    const secret = config.noticeSecret ?? randomBytes(32).toString('base64url');
    if (!config.noticeSecret)
      app.log.warn(
        'VERSIONARY_NOTICE_SECRET is not set: unsubscribe links in notices sent now stop working at restart',
      );
    if (!config.smtp)
      app.log.info('VERSIONARY_SMTP_URL is not set: email notices are planned and kept, waiting for a mail transport');

    const cache = await createBrownoutCache({
      configured: settings.brownouts,
      load: () => storage.notices.listBrownouts(),
    });
    provideSteps(app, [[brownoutListingKey, { cache, clock, path: `${api.prefix}/versions` }]]);

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
        checkUrl: (url) => assertPublicWebhookUrl({ url, settings: webhookSettings }),
        target: async (clientId, webhookId) =>
          (await storage.clients.find(clientId))?.webhooks.find((w) => w.id === webhookId),
      }),
      ...(options.noticeChannels ?? []),
    ];
    const channelErrors = checkChannels(channels);
    if (channelErrors.length > 0)
      throw new VersionaryError({
        code: ErrorCode.InvalidConfig,
        detail: `The notice channels have ${channelErrors.length} error(s):\n- ${channelErrors.join('\n- ')}`,
      });
    const payloads = createPayloadBuilder({
      runtime,
      bundle,
      apiKeys: storage.apiKeys,
      publicUrl: settings.publicUrl,
      apiPrefix: api.prefix,
    });
    const worker = createNoticeWorker({
      storage,
      runtime,
      settings,
      clock,
      channels,
      log: app.log,
      payloads,
      brownouts: cache,
      flushUsage,
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

    const routes = { storage, cache, runtime, clock, flushUsage };
    await app.register(
      async (admin) => {
        admin.removeContentTypeParser('text/plain'); // The management API takes JSON only: other bodies are 415.
        registerNoticeAdminRoutes(admin, { notices: storage.notices, worker });
        registerBrownoutAdminRoutes(admin, routes);
      },
      { prefix: '/admin/v1' },
    );
    registerRehearsalRoutes(app, routes);
    registerUnsubscribeRoutes(app, { storage, secret, clock });
    // The row's step is the request id, so a decision is told once, however often this runs for it.
    const notifyDecision: ExtendedAccessDecisionNotifier = async ({ request, until, cap }) => {
      if (request.status === 'pending') return;
      const client = await storage.clients.find(request.clientId);
      if (!client) return;
      const s = request.subject;
      const parts = {
        version: s.version,
        ...(s.kind === 'endpoint' ? { endpoint: `${s.method} ${s.path}` } : {}),
        ...(s.kind === 'element' ? { element: s.element } : {}),
      };
      const now = clock.now();
      // The subject's own dates when it is still deprecated; a subject no longer deprecated has none.
      const sunsetAt = noticeSubjects(runtime).find((x) => subjectId(x) === subjectId(parts))?.sunsetAt ?? now;
      const notice = dueNotice({
        subject: { ...parts, sunsetAt },
        clientId: client.id,
        kind: request.status,
        step: request.id,
        now,
      });
      const built = await payloads.build({ notice, client, rows: [] });
      const payload = {
        ...built,
        data: {
          ...built.data,
          [earlierNames.noticeMember]: {
            requestId: request.id,
            decision: request.status,
            until: request.status === 'granted' && until !== null ? formatIsoInstant(until) : null,
            cap: cap === null ? null : formatIsoInstant(cap),
            reason: request.decisionNote,
          },
        },
      };
      const written = await enqueueNotice({ channels, storage }, { notice, client, payload, now });
      if (typeof written === 'number')
        // The decision's answer does not wait: the worker delivers in the background, as on its timer.
        void worker.deliverQueued().catch((error: unknown) => app.log.error({ err: error }, 'notices delivery failed'));
    };
    // The decision is recorded before its notice is queued: a failure here is logged, never the decision's.
    context.decisionNotices = (decision) =>
      notifyDecision(decision).catch((error: unknown) => app.log.error({ err: error }, 'decision notice not queued'));
    context.brownouts = () => cache.all();
  },
};
