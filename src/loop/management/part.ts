import { defineLoopPart } from '../define-part.ts';
import { loopOptionsValidators } from '../options-schema.ts';

/**
 * The loop's management API under `/admin/v1`: API keys, clients, each version's and endpoint's
 * stored schedule, usage, approvals, and everything deprecated.
 *
 * @example
 * ```ts
 * await loop.register(versionaryLoopManagement);
 * ```
 */
export const versionaryLoopManagement = defineLoopPart<Record<never, never>>({
  name: 'versionary-loop-management',
  dependencies: ['versionary-loop-storage', 'versionary-loop-lifecycle', 'versionary-loop-access'],
  options: loopOptionsValidators.none,
  async install(app, state) {
    const [{ adminFeature }, { installFeatures }] = await Promise.all([
      import('./admin/feature.ts'),
      import('../install-features.ts'),
    ]);
    await installFeatures(app, state, { features: [adminFeature], part: 'versionary-loop-management' });
  },
});
