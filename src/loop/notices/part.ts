import { defineLoopPart } from '../define-part.ts';
import { loopOptionsValidators } from '../options-schema.ts';
import type { LoopNoticesOptions } from '../storage/part.ts';

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
  async install(_app, state, options) {
    const [{ noticesFeature }, { installFeatures }] = await Promise.all([
      import('./feature.ts'),
      import('../install-features.ts'),
    ]);
    // The part's options reach its own feature in a copy of the context: no part writes another's.
    const context = {
      ...state.context,
      options: {
        ...state.context.options,
        ...(options.noticeChannels ? { noticeChannels: options.noticeChannels } : {}),
      },
    };
    await installFeatures({ ...state, context }, [noticesFeature], 'versionary-loop-notices');
    // The brownouts the portal shows, read by the part after this one.
    if (context.brownouts) state.context.brownouts = context.brownouts;
  },
});
