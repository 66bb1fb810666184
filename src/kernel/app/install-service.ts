import type { FastifyInstance } from 'fastify';
import type { VersionBundle } from '../../core/versions/index.ts';
import { installJsonBody, installLingeringClose } from '../../http/index.ts';
import { installStrictRequests } from '../../http/request-target.ts';
import { createRequiredRole } from '../../loop/access/auth/required-role.ts';
import { publishingStorage } from '../change-feed/publishing-storage.ts';
import { releaseDates } from '../../loop/lifecycle/policy-check.ts';
import { createLifecycleRuntime } from '../../loop/lifecycle/runtime.ts';
import { resolveOps } from '../ops/install-ops.ts';
import { createOperationCounter } from '../../loop/usage/operation-counter.ts';
import { createUsageRecorder, type UsageRecorder } from '../../loop/usage/usage-recorder.ts';
import type { Clock } from '../../core/clock/index.ts';
import type { ServiceConfig } from '../config/load-config.ts';
import type { Storage } from '../ports/index.ts';
import type { ServiceContext, ServiceOptions } from './feature.ts';

/**
 * What every feature is installed with: the request basics every route inherits (one canonical
 * path, the lingering close, the JSON body parser), the storage that announces its writes, and
 * the stored lifecycle. Usage is not recorded until {@link installUsage} replaces the recorder.
 */
export async function createServiceContext(
  app: FastifyInstance,
  input: {
    config: ServiceConfig;
    storage: Storage;
    clock: Clock;
    bundle: VersionBundle;
    api: ServiceContext['api'];
    options: ServiceOptions;
  },
): Promise<ServiceContext> {
  const { config, clock, bundle, api, options } = input;
  // First of all hooks: every later one (limits, roles, the lifecycle, usage, forwarding) sees one canonical path.
  installStrictRequests(app, api.prefix);
  // Here, before any feature's plugin context exists, so that every route inherits it (the forwarded API too).
  installLingeringClose(app);
  const ops = resolveOps(options.ops);
  const storage = publishingStorage({ storage: input.storage, feed: ops.changeFeed });
  const runtime = await createLifecycleRuntime({
    settings: config.settings.lifecycle,
    store: storage.lifecycle,
    clock,
    prefix: api.prefix,
    versions: releaseDates(bundle, options.releases),
    defaultDeprecated: options.defaultDeprecated ?? bundle.versions.slice(0, -1).map((v) => v.name),
  });
  installJsonBody(app, { types: ['application/json', 'application/merge-patch+json'] });
  for (const warning of runtime.warnings) app.log.warn({ rule: warning.rule }, warning.detail);
  for (const warning of config.settings.lifecycle.warnings ?? []) app.log.warn({ code: warning.code }, warning.detail);
  return {
    app,
    config,
    storage,
    bundle,
    clock,
    runtime,
    recorder: discardingRecorder,
    ops,
    options,
    api,
    requiredRole: createRequiredRole(api.prefix),
  };
}

/**
 * Record usage: calls to deprecated versions in the usage recorder, and every version's calls per
 * operation in the operation counter (none when its retention is 0 days). Both are flushed and
 * closed with the app.
 */
export function installUsage(context: ServiceContext): void {
  const { app, config, storage } = context;
  const recorder = createUsageRecorder({
    store: storage.usage,
    log: app.log,
    keepRaw: config.settings.usage.rawRetentionDays > 0,
  });
  // A retention of 0 days means no operation counts: nothing is counted, nothing written.
  const operations =
    config.settings.usage.operationRetentionDays === 0
      ? undefined
      : createOperationCounter({
          store: storage.usage,
          log: app.log,
          flushIntervalMs: config.settings.usage.operationFlushSeconds * 1000,
        });
  context.recorder = recorder;
  if (operations) context.operations = operations;
  app.addHook('onClose', async () => {
    await Promise.all([recorder.close(), operations?.close()]);
  });
}

/** Write the buffered usage records and operation counts now. */
export async function flushUsageOf(context: Pick<ServiceContext, 'recorder' | 'operations'>): Promise<void> {
  await Promise.all([context.recorder.flush(), context.operations?.flush()]);
}

const discardingRecorder: UsageRecorder = {
  record: () => {},
  flush: async () => {},
  close: async () => {},
  stats: () => ({ buffered: 0, shed: 0, failures: 0 }),
};
