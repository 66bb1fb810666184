import type { TSchema } from '@sinclair/typebox';
import type { SchemaValidator } from '../../core/config/index.ts';
import { createRequestValidatorCompiler } from '../../http/request-validator.ts';
import type { ListedStep } from '../../http/pipeline/step-definition.ts';
import type { ParsedSettings } from '../../kernel/config/feature-settings.ts';
import { loopEnv } from '../host/loop-env.ts';
import { defineLoopPart, type LoopPart } from '../host/define-part.ts';
import type { LoopConfig, SettingsList } from '../host/config.ts';
import type { LoopStorageOptions } from './options.ts';
import { assertPeers, peersFor } from './peer-packages.ts';

/**
 * What the storage part is made with, by the product that lists its parts (the preset): the
 * storage part is the first, and checks and parses for all of them in one pass, but imports none.
 */
export interface LoopStorageWiring<List extends SettingsList> {
  /** The sections of the config file the parts read (`loop/settings.ts`), parsed with the options. */
  settings: List;
  /** Every per-request step of the parts, in the order a request meets them (`loop/steps.ts`). */
  steps: readonly ListedStep[];
  /** The check of the options object as a whole: this part's, every other part's, the preset's switches. */
  options: SchemaValidator<TSchema>;
  /** The problems of the parsed settings against the options (the lifecycle policy, the handlers), told with their errors. */
  startProblems(input: {
    options: LoopStorageOptions;
    config: LoopConfig<ParsedSettings<List>>;
    prefix: string;
  }): string[];
}

/**
 * The loop's first part: its database (its own tables, SQLite by file or PostgreSQL by URL), the
 * change feed and Redis when configured, the context every other part installs with, and one
 * check of the options and the settings, reporting every error at once. It registers no route.
 * `versionaryLoopStorage` is this part made with the loop's lists (`loop/preset.ts`).
 */
export function loopStoragePart<List extends SettingsList>(
  wiring: LoopStorageWiring<List>,
): LoopPart<LoopStorageOptions> {
  return defineLoopPart<LoopStorageOptions>({
    name: 'versionary-loop-storage',
    dependencies: [],
    async install(app, _state, options) {
      assertPeers(peersFor({ env: loopEnv(options), surface: 'loop', parts: ['versionary-loop-storage'] }));
      const { installLoopStorage } = await import('./body.ts');
      // Every route the parts register validates as its document says (no removal of unknown
      // members, no coercion, no defaults), with the validator the routing plugin's routes carry:
      // a context setting, so the app's own routes, outside it, keep their server's validator.
      app.setValidatorCompiler(createRequestValidatorCompiler());
      await installLoopStorage(app, { options, wiring });
    },
  });
}
