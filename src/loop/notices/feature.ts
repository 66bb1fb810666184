import type { ServiceFeature } from '../host/feature.ts';
import type { LifecycleContext } from '../lifecycle/context.ts';
import { lifecycleSection } from '../lifecycle/settings.ts';
import type { LoopNoticesOptions } from './options.ts';
import { registerNotices } from './register-notices.ts';

/** What the notices part's features are installed with: the lifecycle's context and this part's options. */
export type NoticesContext = LifecycleContext & { options: LoopNoticesOptions };

/** Notices by email, webhooks and the app's own channels; brownouts and rehearsals (`docs/notices.md`). */
export const noticesFeature: ServiceFeature<NoticesContext> = {
  name: 'notices',
  async install(context) {
    const { app, config, storage, runtime, bundle, clock, recorder, options, api } = context;
    const notices = await registerNotices(app, {
      config,
      storage,
      runtime,
      bundle,
      clock,
      flushUsage: () => recorder.flush(),
      removedStatus: lifecycleSection.of(config).removedStatus,
      apiPrefix: api.prefix,
      ...(options.noticeChannels ? { channels: options.noticeChannels } : {}),
    });
    context.brownouts = () => notices.brownouts();
    context.decisionNotices = notices.decisionNotices;
  },
};
