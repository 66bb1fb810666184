import { defineLoopPart } from '../host/define-part.ts';
import { loopOptionsValidators } from '../options-schema.ts';
import { provideBrownouts, provideDecisionNotices } from './brownouts-provided.ts';
import type { LoopNoticesOptions } from './options.ts';

/**
 * The loop's notices part: email, webhook and your own channels' notices before each deprecation
 * and sunset, brownouts and their rehearsals, unsubscribe links.
 *
 * @example
 * ```ts
 * await loop.register(versionaryLoopNotices, { noticeChannels: [slackChannel] });
 * ```
 */
export const versionaryLoopNotices = defineLoopPart<LoopNoticesOptions>({
  name: 'versionary-loop-notices',
  dependencies: ['versionary-loop-storage', 'versionary-loop-lifecycle', 'versionary-loop-access'],
  options: loopOptionsValidators.notices,
  async install(app, state, options) {
    const [{ noticesFeature }, { installFeatures }] = await Promise.all([
      import('./feature.ts'),
      import('../host/install-features.ts'),
    ]);
    const context = await installFeatures(app, state, {
      features: [noticesFeature],
      part: 'versionary-loop-notices',
      options: options.noticeChannels ? { noticeChannels: options.noticeChannels } : {},
    });
    // The brownouts the portal shows: provided to the parts after this one.
    if (context.brownouts) provideBrownouts(app, context.brownouts);
    // Decisions on requests for extended access are told to the client: provided to the parts after this one.
    if (context.decisionNotices) provideDecisionNotices(app, context.decisionNotices);
  },
});
