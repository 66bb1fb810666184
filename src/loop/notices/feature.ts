import type { ServiceFeature } from '../host/feature.ts';
import { registerNotices } from './register-notices.ts';

/** Notices by email, webhooks and the app's own channels; brownouts and rehearsals (`docs/notices.md`). */
export const noticesFeature: ServiceFeature = {
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
      removedStatus: config.settings.lifecycle.removedStatus,
      apiPrefix: api.prefix,
      ...(options.noticeChannels ? { channels: options.noticeChannels } : {}),
    });
    context.brownouts = () => notices.brownouts();
    context.decisionNotices = notices.decisionNotices;
  },
};
