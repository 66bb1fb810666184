import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { defineLoopPart } from '../host/define-part.ts';
import { provideToLaterParts } from '../host/provided.ts';
import { noOptionsSchema, optionsValidator } from '../host/option-schemas.ts';

/**
 * The loop's usage part: calls to deprecated versions, endpoints and elements recorded per client,
 * and every version's calls counted per operation (for `versionary diff`). Registered before the
 * lifecycle part, which hands it each call; without it, nothing is recorded.
 *
 * @example
 * ```ts
 * await loop.register(versionaryLoopUsage);
 * ```
 */
export const versionaryLoopUsage = defineLoopPart<Record<never, never>>({
  name: 'versionary-loop-usage',
  dependencies: ['versionary-loop-storage'],
  options: optionsValidator(noOptionsSchema),
  async install(app, state) {
    if (app.hasPlugin('versionary-loop-lifecycle'))
      throw new VersionaryError({
        code: ErrorCode.InvalidConfig,
        detail:
          'versionary-loop-usage is registered after versionary-loop-lifecycle: register it before, so that the API records every call from the start.',
      });
    const { installUsage } = await import('./install-usage.ts');
    // Read by the parts registered after this one (the lifecycle part's API).
    provideToLaterParts(app, { ...installUsage(state.context) });
  },
});
