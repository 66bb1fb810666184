import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { pickDefined } from '../core/config/index.ts';
import fp from 'fastify-plugin';
import type { VersionBundle } from '../core/versions/index.ts';
import { serviceServerOptions } from '../kernel/app/server-options.ts';
import { parseTimeoutSettings, toServerOptions } from '../kernel/app/timeouts.ts';
import { versionaryLoopAccess } from './access/part.ts';
import { optionKeysOf, type LoopPart } from './host/define-part.ts';
import { installOwnedNotFound } from './host/owned-not-found.ts';
import { versionaryLoopLifecycle } from './lifecycle/part.ts';
import { loopPartNames, loopStateOf, type LoopPartName, type LoopState } from './host/loop-state.ts';
import { versionaryLoopManagement } from './management/part.ts';
import { versionaryLoopNotices } from './notices/part.ts';
import type { LoopOptionKeys } from './options-schema.ts';
import { versionaryLoopPortal } from './portal/part.ts';
import { loopStoragePart } from './storage/part.ts';
import { type LoopStorageOptions } from './storage/options.ts';
import { handlerOptionProblems } from '../http/handler-coverage.ts';
import { ownedPrefixesOf } from './host/define-part.ts';
import { policyProblems } from './lifecycle/start-problems.ts';
import { loopOptionsValidator } from './options-schema.ts';
import { serviceSettings } from './settings.ts';
import { loopSteps } from './steps.ts';
import { type LoopNoticesOptions } from './notices/options.ts';
import { type LoopLifecycleOptions } from './lifecycle/options.ts';
import { type LoopAccessOptions } from './access/options.ts';
import { versionaryLoopUsage } from './usage/part.ts';
import { loopEnv } from './host/loop-env.ts';
import { isBodyLimit } from './host/config.ts';
import { assertPeers, peersFor } from './storage/peer-packages.ts';
import { readableStartFailure, type StartFailure } from './host/start-failure.ts';

/**
 * Options of {@link versionaryLoop}: every part's options in one object (the storage part's say
 * what the API is and where the loop keeps its state), and which optional parts to leave out.
 *
 * @example
 * ```ts
 * const options: VersionaryLoopOptions = { bundle, handlers, vendor: 'books', title: 'Books API', settings: { versions: { v1: { deprecatedAt, sunsetAt } } } };
 * ```
 */
export interface VersionaryLoopOptions
  extends LoopStorageOptions, LoopLifecycleOptions, LoopAccessOptions, LoopNoticesOptions {
  /** `false` leaves out the portal (docs pages, changelog and feeds, dashboards) and the packages it needs. */
  portal?: boolean;
  /** `false` leaves out notices by email, webhooks and channels, and brownouts. */
  notices?: boolean;
  /** `false` leaves out the usage part: nothing is recorded (the bench measures its cost so). */
  recordUsage?: boolean;
  /** `false` leaves out the MCP server for agents at `/admin/mcp` (`docs/machines.md#mcp-server-for-agents`). */
  mcp?: boolean;
}

// The documented option types and the schema that checks them take the same keys: adding an
// option to one and not the other fails to compile.
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const optionKeysAgree: SameKeys<keyof VersionaryLoopOptions, LoopOptionKeys> = true;
void optionKeysAgree;

/** The parts {@link versionaryLoop} registers for `options`, in order. */
function presetParts(options: Pick<VersionaryLoopOptions, 'portal' | 'notices' | 'recordUsage'>): LoopPartName[] {
  return loopPartNames.filter(
    (name) =>
      !(name === 'versionary-loop-portal' && options.portal === false) &&
      !(name === 'versionary-loop-notices' && options.notices === false) &&
      !(name === 'versionary-loop-usage' && options.recordUsage === false),
  );
}

/**
 * The whole deprecation loop in your own Fastify app: your versioned operations (through the
 * `versionary` routing plugin), API keys and clients, usage per client, the stored lifecycle and
 * its management API under `/admin/v1`, email and webhook notices with brownouts, the portal with
 * docs pages and dashboards, probes and metrics, on a database of its own (SQLite by file, or
 * PostgreSQL by URL). It is a preset of the loop's parts (`versionaryLoopStorage`,
 * `versionaryLoopUsage`, `versionaryLoopLifecycle`, `versionaryLoopAccess`,
 * `versionaryLoopNotices`, `versionaryLoopPortal`, `versionaryLoopManagement`), registered in a
 * context of their own so that nothing they add reaches the app's routes; `portal: false` and
 * `notices: false` leave those two out.
 *
 * Spread {@link loopServerOptions} of the same options into `Fastify()`: negotiation by `Accept`
 * and the parser's and router's problems are construction options, which no plugin can set.
 *
 * @example
 * ```ts
 * const options = { bundle, handlers, vendor: 'books', title: 'Books API', settings: { versions: { v1: { … } } } };
 * const app = Fastify({ ...loopServerOptions(options), logger: true });
 * await app.register(versionaryLoop, options);
 * ```
 */
export const versionaryLoop = fp(
  async (app: FastifyInstance, options: VersionaryLoopOptions) => {
    const parts = presetParts(options);
    // Every package this configuration needs, named at once, before any of them is imported.
    assertPeers(peersFor({ env: loopEnv(options), surface: 'loop', parts }));
    // The parts in a context of their own: the hooks, error handler, parsers and decorators they add
    // apply to the routes they register, never to the app's. This wrapper stays `fastify-plugin`
    // so that a `prefix` given to `register` is the loop's option, not a second prefix.
    try {
      await app.register(async function versionaryLoopContext(loop) {
        await registerLoopParts(loop, options);
      });
    } catch (error) {
      throw readableStartFailure((error as Partial<StartFailure>).versionaryError ?? error, 'versionary/loop');
    }
  },
  { name: 'versionary-loop', fastify: '5.x' },
);

/**
 * Register the loop's parts for `options` in `scope`, in order, each with its own options, then
 * the not-found answers under their prefixes once every part's hooks are in. The preset calls it
 * in a context of its own; the reference service and the gateway, whose whole app the loop is,
 * call it on their root: one composition, the same parts in the same order.
 */
export async function registerLoopParts(scope: FastifyInstance, options: VersionaryLoopOptions): Promise<LoopState> {
  const parts = presetParts(options);
  await scope.register(versionaryLoopStorage, options);
  const state = loopStateOf(scope);
  // Unknown paths are answered once every part is in, so that they meet every part's hooks.
  state.partNotFound = false;
  // Each part is given the options its own schema declares, under their names: none is listed here.
  for (const name of parts.slice(1)) {
    const part = partsByName[name];
    await scope.register(
      part as LoopPart<object>,
      pickDefined(options as unknown as Record<string, unknown>, optionKeysOf(part)),
    );
  }
  // An app that is the loop's alone answers its unknown paths at its root (the lifecycle part's problems).
  if (!options.ownsApp)
    await installOwnedNotFound(
      scope,
      state.context,
      parts.flatMap((name) => ownedPrefixesOf(partsByName[name], state)),
    );
  return state;
}

/**
 * The loop's storage part, made with the loop's lists: the sections of the config file, the
 * steps, the check of the options as a whole, and the start's second pass (the handlers against
 * the bundle, the lifecycle policy against its versions), so that one error tells every problem.
 *
 * @example
 * ```ts
 * await loop.register(versionaryLoopStorage, { bundle, vendor: 'books', title: 'Books API' });
 * ```
 */
export const versionaryLoopStorage = loopStoragePart({
  settings: serviceSettings,
  steps: loopSteps,
  options: loopOptionsValidator,
  startProblems({ options, config, prefix }) {
    const { handlers } = options as Pick<VersionaryLoopOptions, 'handlers'>;
    const host = options.host ?? {};
    return [
      ...(handlers && typeof handlers !== 'function' ? handlerOptionProblems(options.bundle.head, handlers) : []),
      ...policyProblems({
        config,
        versions: options.bundle.versions.map((v) => v.name),
        prefix,
        ...(options.clock ? { now: options.clock.now() } : {}),
        ...(host.releases ? { releases: host.releases } : {}),
        ...(host.defaultDeprecated ? { defaultDeprecated: host.defaultDeprecated } : {}),
      }),
    ];
  },
});

const partsByName: Record<LoopPartName, LoopPart<never>> = {
  'versionary-loop-storage': versionaryLoopStorage,
  'versionary-loop-usage': versionaryLoopUsage,
  'versionary-loop-lifecycle': versionaryLoopLifecycle,
  'versionary-loop-access': versionaryLoopAccess,
  'versionary-loop-notices': versionaryLoopNotices,
  'versionary-loop-portal': versionaryLoopPortal,
  'versionary-loop-management': versionaryLoopManagement,
};

/**
 * The Fastify construction options the loop expects: `Accept` negotiation, request ids, problems
 * for parser and router failures (its routes validate strictly with a validator of their own, so
 * the server's `ajv` options are left as the app has them); and the server's `timeouts` and `bodyLimit`
 * when `settings` names them (they apply to the whole server, your routes too). Give it the very object you register the loop with, so that the two cannot
 * disagree. A bad timeout or body limit falls back to its default here and is reported with every
 * other error of the settings when the loop registers.
 *
 * @example
 * ```ts
 * const app = Fastify({ ...loopServerOptions(options), logger: true });
 * await app.register(versionaryLoop, options);
 * ```
 */
export function loopServerOptions(options: {
  bundle: VersionBundle;
  vendor: string;
  prefix?: string;
  settings?: object;
}): FastifyServerOptions & { http?: { headersTimeout: number; connectionsCheckingInterval: number } } {
  const file = (options.settings ?? {}) as Record<string, unknown>;
  // Server-wide, so only when the settings name them: the app's own routes keep Fastify's defaults otherwise.
  const timeouts = file.timeouts === undefined ? {} : toServerOptions(parseTimeoutSettings({ file, errors: [] }));
  // Not the service's `ajv` options: the loop's routes carry a validator of their own, and the
  // app's routes keep the validation they had.
  const { ajv: _serviceAjv, ...server } = serviceServerOptions({
    bundle: options.bundle,
    api: { prefix: options.prefix ?? '/api', vendor: options.vendor },
  });
  return {
    ...server,
    ...timeouts,
    ...(isBodyLimit(file.bodyLimit) ? { bodyLimit: file.bodyLimit } : {}),
  };
}
