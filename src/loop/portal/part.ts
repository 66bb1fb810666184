import { defineLoopPart } from '../host/define-part.ts';
import { noOptionsSchema, optionsValidator } from '../host/option-schemas.ts';
import type { LifecycleContext } from '../lifecycle/context.ts';

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
  options: optionsValidator(noOptionsSchema),
  owns: () => ['/docs', '/portal', '/portal-assets'],
  async install(app, state) {
    const [{ portalFeature }, { installFeatures }] = await Promise.all([
      import('./feature.ts'),
      import('../host/install-features.ts'),
    ]);
    await installFeatures<LifecycleContext>(app, state, { features: [portalFeature] });
  },
});
