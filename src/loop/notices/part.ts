import { defineLoopPart } from '../host/define-part.ts';
import { optionsValidator } from '../host/option-schemas.ts';
import { provideToLaterParts } from '../host/provided.ts';
import { noticesOptionsSchema, type LoopNoticesOptions } from './options.ts';
import type { NoticesContext } from './feature.ts';

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
  options: optionsValidator(noticesOptionsSchema),
  // The notices' links (unsubscribe, rehearsals).
  owns: () => ['/notices'],
  async install(app, state, options) {
    const [{ noticesFeature }, { installFeatures }] = await Promise.all([
      import('./feature.ts'),
      import('../host/install-features.ts'),
    ]);
    const context = await installFeatures<NoticesContext>(app, state, {
      features: [noticesFeature],
      options: options.noticeChannels ? { noticeChannels: options.noticeChannels } : {},
    });
    // The brownouts the portal shows, and the notifier that tells a client of the owner's decision
    // on its request for extended access: provided to the parts after this one.
    provideToLaterParts(app, { brownouts: context.brownouts, decisionNotices: context.decisionNotices });
  },
});
