import { defineLoopPart } from '../host/define-part.ts';
import { loopOptionsValidators } from '../options-schema.ts';
import type { LoopLifecycleOptions } from './options.ts';

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
  options: loopOptionsValidators.lifecycle,
  async install(app, state, options) {
    const { installLoopLifecycle } = await import('./body.ts');
    await installLoopLifecycle(app, state, options);
  },
});
