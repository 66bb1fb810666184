import { defineLoopPart } from '../host/define-part.ts';
import { optionsValidator } from '../host/option-schemas.ts';
import { accessOptionsSchema, type LoopAccessOptions } from './options.ts';
import type { AccessContext } from './auth/feature.ts';

/**
 * The loop's access part: who is calling (your `identify`, then Versionary's API keys and JWTs),
 * rate limits per address and per client, the roles of the management API, idempotent writes, the
 * first admin key; and the management API's OpenAPI document, which documents every `/admin`
 * route registered after it.
 *
 * @example
 * ```ts
 * await loop.register(versionaryLoopAccess, { identify });
 * ```
 */
export const versionaryLoopAccess = defineLoopPart<LoopAccessOptions>({
  name: 'versionary-loop-access',
  dependencies: ['versionary-loop-storage', 'versionary-loop-lifecycle'],
  options: optionsValidator(accessOptionsSchema),
  // The management API (its document comes with this part).
  owns: () => ['/admin'],
  async install(app, state, options) {
    const [{ accessFeature }, { managementDocumentFeature }, { installFeatures }] = await Promise.all([
      import('./auth/feature.ts'),
      import('../lifecycle/openapi/feature.ts'),
      import('../host/install-features.ts'),
    ]);
    const own = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    await installFeatures<AccessContext>(app, state, {
      features: [accessFeature, managementDocumentFeature],
      options: own,
    });
  },
});
