import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { TSchema } from '@sinclair/typebox';
import type { SchemaValidator } from '../../core/config/index.ts';
import { ErrorCode, VersionaryError, type VersionaryErrorOptions } from '../../core/errors/index.ts';
import { installOwnedNotFound } from './owned-not-found.ts';
import { readableStartFailure } from './start-failure.ts';
import { loopPartNames, loopStateOf, recordLoopPart, type LoopPartName, type LoopState } from './loop-state.ts';

/** A part of the loop: its name, the parts it needs before it, its options' check, the paths it owns, its install. */
export interface LoopPartSpec<Options extends FastifyPluginOptions> {
  name: LoopPartName;
  dependencies: readonly LoopPartName[];
  /** The check of its options (the storage part checks its own with the settings, in one pass). */
  options?: SchemaValidator<TSchema>;
  /** The path prefixes it answers under, beside the API's prefix, for the not-found answers there. */
  owns?: (apiPrefix: string) => readonly string[];
  install(app: FastifyInstance, state: LoopState, options: Options): Promise<void>;
}

/**
 * A part of the loop as a Fastify plugin, and the parts it depends on.
 *
 * @example
 * ```ts
 * const needs: readonly LoopPartName[] = versionaryLoopPortal.dependencies;
 * ```
 */
export type LoopPart<Options extends FastifyPluginOptions> = FastifyPluginAsync<Options> & {
  readonly dependencies: readonly LoopPartName[];
};

/** A named Fastify plugin that first checks every part it depends on is registered, naming all missing at once. */
export function defineLoopPart<Options extends FastifyPluginOptions>(spec: LoopPartSpec<Options>): LoopPart<Options> {
  const plugin = fp(
    async (app: FastifyInstance, options: FastifyPluginOptions) => {
      const invalid = (error: Omit<VersionaryErrorOptions, 'code'>) =>
        readableStartFailure(new VersionaryError({ code: ErrorCode.InvalidConfig, ...error }), spec.name);
      const missing = spec.dependencies.filter((name) => !app.hasPlugin(name));
      if (missing.length > 0)
        throw invalid({
          detail:
            `${spec.name} needs ${missing.join(', ')} registered before it, in the same context. ` +
            `The loop's parts, in order: ${loopPartNames.join(', ')}.`,
        });
      const problems = spec.options?.errors(options, '') ?? [];
      if (problems.length > 0)
        throw invalid({
          detail: `The options of ${spec.name} have ${problems.length} error(s):\n- ${problems.join('\n- ')}`,
          errors: problems.map((detail) => ({ pointer: '/options', detail })),
        });
      const state = loopStateOf(app);
      // The storage part checks its own before the state exists; the others theirs, naming all at once.
      state?.assertPeers(spec.name);
      try {
        await spec.install(app, state, options as Options);
        // A part registered on its own answers its unknown paths (the preset does, once all are in).
        const after = loopStateOf(app);
        if (after.partNotFound) await installOwnedNotFound(app, after.context, ownedPrefixesOf(part, after));
        recordLoopPart(app, spec.name);
      } catch (error) {
        throw readableStartFailure(error, spec.name);
      }
    },
    { name: spec.name, fastify: '5.x' },
  ) as unknown as FastifyPluginAsync<Options>;
  const part = Object.assign(plugin, { dependencies: spec.dependencies });
  owned.set(part, spec.owns ?? (() => []));
  optionKeys.set(
    part,
    spec.options ? Object.keys((spec.options.schema as { properties?: object }).properties ?? {}) : [],
  );
  return part;
}

// Kept beside the parts rather than on them: `LoopPart` is public, and which keys a part reads is the loop's business.
const optionKeys = new WeakMap<object, readonly string[]>();
const owned = new WeakMap<object, (apiPrefix: string) => readonly string[]>();

/** The path prefixes `part` answers under (`owns`), the API's own among them for the lifecycle part. */
export function ownedPrefixesOf(part: LoopPart<never>, state: LoopState): readonly string[] {
  return owned.get(part)?.(state.context.api.prefix) ?? [];
}

/** The options a part declares in its schema, by name: what the preset hands it of its one options object. */
export function optionKeysOf(part: LoopPart<never>): readonly string[] {
  return optionKeys.get(part) ?? [];
}
