import { defineLoopPart } from '../host/define-part.ts';
import { loopOptionsValidators } from '../options-schema.ts';

/**
 * The loop's portal part: docs pages with deprecation banners, the changelog and its feeds, the
 * api-catalog, and the owner's and each consumer's dashboards.
 *
 * @example
 * ```ts
 * await loop.register(versionaryLoopPortal);
 * ```
 */
export const versionaryLoopPortal = defineLoopPart<Record<never, never>>({
  name: 'versionary-loop-portal',
  dependencies: ['versionary-loop-storage', 'versionary-loop-lifecycle', 'versionary-loop-access'],
  options: loopOptionsValidators.none,
  async install(app, state) {
    const [{ portalFeature }, { installFeatures }] = await Promise.all([
      import('./feature.ts'),
      import('../host/install-features.ts'),
    ]);
    await installFeatures(app, state, { features: [portalFeature], part: 'versionary-loop-portal' });
  },
});
