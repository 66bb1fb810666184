import { defineLoopPart } from '../host/define-part.ts';
import { optionsValidator } from '../host/option-schemas.ts';
import { lifecycleOptionsSchema, type LoopLifecycleOptions } from './options.ts';

/**
 * The loop's lifecycle part: your versioned operations under the API prefix (through the
 * `versionary` routing plugin), fed by the stored lifecycle: deprecation headers, 410 after the
 * sunset, migration guides, the version documents; with security and caching headers, probes and
 * metrics, on its own routes only.
 *
 * @example
 * ```ts
 * await loop.register(versionaryLoopLifecycle, { handlers });
 * ```
 */
export const versionaryLoopLifecycle = defineLoopPart<LoopLifecycleOptions>({
  name: 'versionary-loop-lifecycle',
  dependencies: ['versionary-loop-storage'],
  options: optionsValidator(lifecycleOptionsSchema),
  // The API's prefix, and the problem pages.
  owns: (apiPrefix) => [apiPrefix, '/problems'],
  async install(app, state, options) {
    const { installLoopLifecycle } = await import('./body.ts');
    await installLoopLifecycle(app, state, options);
  },
});
