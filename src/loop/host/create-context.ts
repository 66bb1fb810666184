import type { FastifyInstance } from 'fastify';
import type { VersionBundle } from '../../core/versions/index.ts';
import { installJsonBody } from '../../http/index.ts';
import { lingeringCloseKey } from '../../http/lingering-close.ts';
import { strictRequestsKey } from '../../http/request-target.ts';
import { listSteps, provideSteps } from '../../http/pipeline/listed-steps.ts';
import { loopSteps } from '../steps.ts';
import { createRequiredRole } from '../access/auth/required-role.ts';
import { publishingStorage } from '../../kernel/change-feed/publishing-storage.ts';
import { releaseDates } from '../lifecycle/policy-check.ts';
import { createLifecycleRuntime } from '../lifecycle/runtime.ts';
import { resolveOps } from '../../kernel/ops/install-ops.ts';
import { discardingRecorder } from '../usage/install-usage.ts';
import type { Clock } from '../../core/clock/index.ts';
import type { ServiceConfig } from './config.ts';
import type { Storage } from '../../kernel/ports/index.ts';
import type { ServiceContext, ServiceOptions } from './feature.ts';

/**
 * What every feature is installed with: the request basics every route inherits (one canonical
 * path, the lingering close, the JSON body parser), the storage that announces its writes, and
 * the stored lifecycle. Usage is recorded by the usage part, which provides its recorder to the
 * parts after it (`loop/install-features.ts`); until then, and without it, calls are not recorded.
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
  // Before any part installs a step: each installs its own from the loop's one list, which orders them.
  listSteps(app, loopSteps, api.prefix);
  // First of all hooks: every later one (limits, roles, the lifecycle, usage, forwarding) sees one canonical path.
  provideSteps({ app, prefix: api.prefix }, [[strictRequestsKey, {}]]);
  // Here, before any feature's plugin context exists, so that every route inherits it (the forwarded API too).
  provideSteps(app, [[lingeringCloseKey, {}]]);
  const ops = resolveOps(options.ops);
  const storage = publishingStorage({ storage: input.storage, feed: ops.changeFeed });
  const runtime = await createLifecycleRuntime({
    settings: config.settings.lifecycle,
    store: storage.lifecycle,
    grants: storage.extendedAccess,
    clock,
    prefix: api.prefix,
    versions: releaseDates(bundle, options.releases),
    defaultDeprecated: options.defaultDeprecated ?? bundle.versions.slice(0, -1).map((v) => v.name),
  });
  installJsonBody(app, { types: ['application/json', 'application/merge-patch+json'] });
  for (const warning of runtime.warnings) app.log.warn({ rule: warning.rule }, warning.detail);
  for (const c of runtime.configConflicts)
    app.log.warn(
      { code: 'lifecycle-config-conflict', version: c.version, winner: c.winner, fields: c.fields },
      c.detail,
    );
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
