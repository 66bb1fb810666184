import { createRequestValidatorCompiler } from '../../http/request-validator.ts';
import { loopEnv } from '../host/loop-env.ts';
import { defineLoopPart } from '../host/define-part.ts';
import type { LoopStorageOptions } from './options.ts';
import { assertPeers, peersFor } from './peer-packages.ts';

/**
 * The loop's first part: its database (its own tables, SQLite by file or PostgreSQL by URL), the
 * change feed and Redis when configured, the stored lifecycle every other part reads, and one
 * check of the settings, reporting every error at once. It registers no route.
 *
 * @example
 * ```ts
 * await app.register(async (loop) => {
 *   await loop.register(versionaryLoopStorage, { bundle, vendor: 'books', title: 'Books API' });
 *   await loop.register(versionaryLoopLifecycle, { handlers });
 * });
 * ```
 */
export const versionaryLoopStorage = defineLoopPart<LoopStorageOptions>({
  name: 'versionary-loop-storage',
  dependencies: [],
  async install(app, _state, options) {
    assertPeers(peersFor({ env: loopEnv(options), surface: 'loop', parts: ['versionary-loop-storage'] }));
    const { installLoopStorage } = await import('./body.ts');
    // Every route the parts register validates as its document says (no removal of unknown
    // members, no coercion, no defaults), with the validator the routing plugin's routes carry:
    // a context setting, so the app's own routes, outside it, keep their server's validator.
    app.setValidatorCompiler(createRequestValidatorCompiler());
    await installLoopStorage(app, options);
  },
});
