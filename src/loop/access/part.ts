import { defineLoopPart } from '../define-part.ts';
import { loopOptionsValidators } from '../options-schema.ts';
import type { LoopAccessOptions } from '../storage/part.ts';

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
  options: loopOptionsValidators.access,
  async install(_app, state, options) {
    const [{ accessFeature }, { managementDocumentFeature }, { installFeatures }] = await Promise.all([
      import('./auth/feature.ts'),
      import('../lifecycle/openapi/feature.ts'),
      import('../install-features.ts'),
    ]);
    // The part's options reach its own features in a copy of the context: no part writes another's.
    const own = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    const context = { ...state.context, options: { ...state.context.options, ...own } };
    await installFeatures({ ...state, context }, [accessFeature, managementDocumentFeature], 'versionary-loop-access');
    // What later parts read of access (the JWT verifier the documents describe) goes back to the shared context.
    if (context.jwt) state.context.jwt = context.jwt;
  },
});
