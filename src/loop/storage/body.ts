import type { FastifyInstance } from 'fastify';
import { pickDefined } from '../../core/config/index.ts';
import type { Logger } from 'pino';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { handlerOptionProblems } from '../../http/handler-coverage.ts';
import { createServiceContext } from '../host/create-context.ts';
import { flushUsage } from '../usage/install-usage.ts';
import { type ServiceConfig } from '../host/config.ts';
import { configOf } from './config-of.ts';
import type { OpsWiring } from '../../kernel/ops/install-ops.ts';
import { loopEnv } from '../host/loop-env.ts';
import { openStorage } from './open-storage.ts';
import { closeSharedState, openSharedState } from './shared-state.ts';
import { policyProblems } from './start-problems.ts';
import { provideLoopState } from '../host/loop-state.ts';
import { loopOptionsValidators } from '../options-schema.ts';
import type { LoopStorageOptions } from './options.ts';

/**
 * The storage part's body, imported once the packages its configuration needs are known to be
 * installed: one pass over the settings (and the handlers when given), then the database, the
 * shared state and the service context the other parts install their features with. What the
 * app hands over in `host` (a configuration already read, an open storage, its ops wiring) is
 * used as given, and what the loop did not open, it does not close.
 */
export async function installLoopStorage(app: FastifyInstance, options: LoopStorageOptions): Promise<void> {
  // The options' own shape first: the rest of the pass reads the bundle only when it is one.
  const shape = loopOptionsValidators.loop.errors(options, '');
  const env = loopEnv(options);
  const host = options.host ?? {};
  // The handlers' problems and the configuration's in one pass, and one error for all of them.
  const { config, errors: problems } = host.config
    ? { config: host.config, errors: [] as string[] }
    : configOf(options);
  problems.unshift(...shape);
  const prefix = options.prefix ?? '/api';
  if (shape.length === 0) {
    if (options.handlers && typeof options.handlers !== 'function')
      problems.push(...handlerOptionProblems(options.bundle.head, options.handlers));
    problems.push(
      ...policyProblems({
        config,
        versions: options.bundle.versions.map((v) => v.name),
        prefix,
        ...(options.clock ? { now: options.clock.now() } : {}),
        ...(host.releases ? { releases: host.releases } : {}),
        ...(host.defaultDeprecated ? { defaultDeprecated: host.defaultDeprecated } : {}),
      }),
    );
  }
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
    const context = await createServiceContext(app, {
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
        ...(opened?.rateLimitStore && !host.rateLimitStore ? { rateLimitStore: opened.rateLimitStore } : {}),
      },
    });
    provideLoopState(app, { context, partNotFound: true, env });
    // Buffered usage is written before anything closes (a no-op until the usage part records).
    app.addHook('preClose', async () => {
      await flushUsage(app);
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
async function openLoopState(app: FastifyInstance, config: ServiceConfig) {
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
  return { storage, ops, close, ...(shared.rateLimitStore ? { rateLimitStore: shared.rateLimitStore } : {}) };
}
