import { readFileSync } from 'node:fs';
import { pickDefined } from '../../core/config/index.ts';
import { parseDatabaseUrl, readEnv, type EnvConfig } from '../../kernel/config/load-config.ts';
import type { ParsedSettings } from '../../kernel/config/feature-settings.ts';
import { withSettings, type LoopConfig, type SettingsList } from '../host/config.ts';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { createServiceContext } from '../host/create-context.ts';
import type { OpsWiring } from '../../kernel/ops/install-ops.ts';
import { loopEnv } from '../host/loop-env.ts';
import { openStorage } from './open-storage.ts';
import { closeSharedState, openSharedState } from './shared-state.ts';
import { provideLoopState } from '../host/loop-state.ts';
import type { LoopStorageOptions } from './options.ts';
import { assertPeers, peersFor } from './peer-packages.ts';
import type { LoopStorageWiring } from './part.ts';

/**
 * The storage part's body, imported once the packages its configuration needs are known to be
 * installed: one pass over the settings (and the handlers when given), then the database, the
 * shared state and the service context the other parts install their features with. What the
 * app hands over in `host` (a configuration already read, an open storage, its ops wiring) is
 * used as given, and what the loop did not open, it does not close.
 */
export async function installLoopStorage<List extends SettingsList>(
  app: FastifyInstance,
  { options, wiring }: { options: LoopStorageOptions; wiring: LoopStorageWiring<List> },
): Promise<void> {
  // The options' own shape first: the rest of the pass reads the bundle only when it is one.
  const shape = wiring.options.errors(options, '');
  const env = loopEnv(options);
  const host = options.host ?? {};
  // The handlers' problems and the configuration's in one pass, and one error for all of them.
  // A configuration the app read already was parsed with the same list (`loop/settings.ts`).
  const { config, errors: problems } = host.config
    ? { config: host.config as Parameters<typeof wiring.startProblems>[0]['config'], errors: [] as string[] }
    : configOf(wiring.settings, options);
  problems.unshift(...shape);
  const prefix = options.prefix ?? '/api';
  if (shape.length === 0) problems.push(...wiring.startProblems({ options, config, prefix }));
  if (problems.length > 0)
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: `The loop's options have ${problems.length} error(s):\n- ${problems.join('\n- ')}`,
      errors: problems.map((detail) => ({ pointer: '/options', detail })),
    });
  const clock = options.clock ?? { now: Date.now };
  const opened = host.storage ? undefined : await openLoopState(app, config);
  const storage = host.storage ?? opened!.storage;
  try {
    const context = createServiceContext(app, {
      steps: wiring.steps,
      config,
      storage,
      clock,
      bundle: options.bundle,
      api: {
        prefix,
        vendor: options.vendor,
        title: options.title,
        ...(options.openapiVersion ? { openapiVersion: options.openapiVersion } : {}),
        // Only what the app gave: a document never describes another API.
        info: host.info ?? { description: options.description, license: options.license, contact: options.contact },
      },
      options: {
        ...pickDefined(host, ['ops', 'rateLimitStore', 'releases', 'defaultDeprecated']),
        ...(opened && !host.ops ? { ops: opened.ops } : {}),
        ...(opened?.ops.rateLimitStore && !host.rateLimitStore ? { rateLimitStore: opened.ops.rateLimitStore } : {}),
      },
    });
    provideLoopState(app, {
      context,
      partNotFound: true,
      env,
      assertPeers: (part) => assertPeers(peersFor({ env, surface: 'loop', parts: [part] })),
    });
  } catch (error) {
    await opened?.close();
    throw error;
  }
}

/**
 * The loop's own database, change feed and Redis, when the app hands none over: several instances
 * share the lifecycle and keys through the change feed (Redis, else PostgreSQL), and rate-limit
 * windows through Redis, as the reference service does. Closed with the app, after every part.
 */
async function openLoopState(app: FastifyInstance, config: LoopConfig) {
  const storage = await openStorage(config.database, { ops: config.ops });
  const shared = await openSharedState({ config, log: app.log as unknown as Logger }).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  // onClose hooks run last-registered first: registered before every part's, this one runs after
  // theirs (the usage buffer, the outbox), so the database closes last.
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await closeSharedState(shared);
    await storage.close();
  };
  app.addHook('onClose', close);
  const ops: OpsWiring = {
    changeFeed: shared.feed,
    reconcileMs: config.ops.reconcileMs,
    readinessChecks: shared.readinessChecks,
    ...(shared.rateLimitStore ? { rateLimitStore: shared.rateLimitStore } : {}),
  };
  return { storage, ops, close };
}

/**
 * The configuration the parts read, from the loop's typed options: `database`, the keys and
 * secrets, mail and JWTs as given, the settings object parsed as the config file would be. `env`,
 * when the app hands one over, is the shorthand for the same options by their variables (the
 * reference service's names); an option given beside it wins.
 */
function configOf<List extends SettingsList>(
  list: List,
  options: LoopStorageOptions,
): { config: LoopConfig<ParsedSettings<List>>; errors: string[] } {
  // Without an environment handed over, the reader's own defaults (a SQLite file of its own, …).
  const { values, errors } = readEnv({ env: options.env ?? {}, readFile: (path) => readFileSync(path, 'utf8') });
  const database = options.database === undefined ? undefined : parseDatabaseUrl(options.database, errors);
  const typed: Partial<EnvConfig> = {
    ...(database ? { database } : {}),
    ...pickDefined(options, ['adminKey', 'smtp', 'jwt', 'redisUrl', 'noticeSecret', 'portalSecret']),
  };
  const file = { ...options.settings, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}) };
  const config = withSettings(list, { values: { ...values, ...typed }, file, fileName: 'settings', errors });
  return { config, errors };
}
