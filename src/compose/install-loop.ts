import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import type { VersionBundle } from '../core/versions/index.ts';
import type { OperationHandler } from '../http/index.ts';
import type { Logger } from 'pino';
import type { ServiceFeature } from '../service/app/feature.ts';
import { serviceFeatures } from '../service/app/features.ts';
import { installService } from '../service/app/install-service.ts';
import { readConfig } from '../service/config/load-config.ts';
import { createResourcesFeature, resourcesFeature } from '../service/resources/feature.ts';
import { rootFeature } from '../service/app/root-feature.ts';
import { loopEnv } from './loop-env.ts';
import type { VersionaryLoopOptions } from './loop-plugin.ts';
import { openStorage } from './open-storage.ts';
import { ownedNotFoundFeature } from './owned-not-found.ts';
import { closeSharedState, openSharedState } from './shared-state.ts';
import { policyProblems } from './start-problems.ts';

const settingsPath = '<versionaryLoop settings>';

/**
 * The body of `versionaryLoop`, imported once the packages its configuration needs are known to
 * be installed: the features below load the portal's renderers, the notices' and the storage's.
 * `app` is the loop's own encapsulated context: its hooks, error handler and parsers reach the
 * loop's routes only.
 */
export async function installLoop(app: FastifyInstance, options: VersionaryLoopOptions): Promise<void> {
  const env = loopEnv(options);
  const file = { ...options.settings, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}) };
  // The handlers' problems and the configuration's in one pass, and one error for all of them.
  const { config, errors: problems } = readConfig({
    env: { ...env, DATABASE_URL: env.DATABASE_URL ?? 'sqlite:./data/versionary.db', VERSIONARY_CONFIG: settingsPath },
    readFile: (path) => (path === settingsPath ? JSON.stringify(file) : readFileSync(path, 'utf8')),
  });
  if (typeof options.handlers !== 'function') problems.push(...handlerProblems(options.bundle, options.handlers));
  problems.push(
    ...policyProblems({
      config,
      versions: options.bundle.versions.map((v) => v.name),
      prefix: options.prefix ?? '/api',
      ...(options.clock ? { now: options.clock.now() } : {}),
    }),
  );
  if (problems.length > 0)
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: `The loop's options have ${problems.length} error(s):\n- ${problems.join('\n- ')}`,
      errors: problems.map((detail) => ({ pointer: '/options', detail })),
    });
  const clock = options.clock ?? { now: Date.now };
  const storage = await openStorage(config.database, { ops: config.ops });
  // Several instances share the lifecycle and keys through the change feed (Redis, else
  // PostgreSQL), and rate-limit windows through Redis, as the reference service does.
  const shared = await openSharedState({ config, log: app.log as unknown as Logger }).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  const handlers = options.handlers;
  // The reference service's features, with the app's operations in place of users and posts, and
  // no `/` (the app owns its root): not its root's not-found handler either, only its own prefixes'.
  const features: ServiceFeature[] = [
    ...serviceFeatures
      .filter((feature) => feature !== rootFeature)
      .map((feature) =>
        feature === resourcesFeature
          ? createResourcesFeature((context) => (typeof handlers === 'function' ? handlers(context) : handlers), {
              ownsApp: false,
            })
          : feature,
      ),
    ownedNotFoundFeature,
  ];
  // onClose hooks run last-registered first: registered before the features', this one runs after
  // theirs (the usage buffer, the outbox), so the database closes last.
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await closeSharedState(shared);
    await storage.close();
  };
  app.addHook('onClose', close);
  try {
    const { flushUsage } = await installService(app, {
      config,
      storage,
      clock,
      bundle: options.bundle,
      features,
      ...(shared.rateLimitStore ? { rateLimitStore: shared.rateLimitStore } : {}),
      ops: {
        changeFeed: shared.feed,
        reconcileMs: config.ops.reconcileMs,
        readinessChecks: shared.readinessChecks,
        ...(shared.rateLimitStore ? { rateLimitStore: shared.rateLimitStore } : {}),
      },
      api: { prefix: options.prefix ?? '/api', vendor: options.vendor, title: options.title },
      ...(options.onBootstrapKey ? { onBootstrapKey: options.onBootstrapKey } : {}),
      ...(options.noticeChannels ? { noticeChannels: options.noticeChannels } : {}),
      ...(options.identify ? { identify: options.identify } : {}),
    });
    app.addHook('preClose', async () => {
      await flushUsage();
    });
  } catch (error) {
    await close();
    throw error;
  }
}

/** Operations without a handler, and handlers of no operation: as the routing plugin checks them, but before it runs. */
function handlerProblems(bundle: VersionBundle, handlers: Record<string, OperationHandler>): string[] {
  const ids = new Set(bundle.head.operations.map((op) => op.id));
  const missing = [...ids].filter((id) => typeof handlers[id] !== 'function');
  const unknown = Object.keys(handlers).filter((id) => !ids.has(id));
  return [
    ...(missing.length > 0 ? [`handlers lacks a function for operation(s): ${missing.join(', ')}`] : []),
    ...(unknown.length > 0 ? [`handlers names operation(s) the bundle does not declare: ${unknown.join(', ')}`] : []),
  ];
}
