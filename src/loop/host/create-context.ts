import type { FastifyInstance } from 'fastify';
import type { VersionBundle } from '../../core/versions/index.ts';
import { installJsonBody } from '../../http/index.ts';
import { lingeringCloseKey } from '../../http/lingering-close.ts';
import { strictRequestsKey } from '../../http/request-target.ts';
import { listSteps, provideSteps } from '../../http/pipeline/listed-steps.ts';
import type { ListedStep } from '../../http/pipeline/step-definition.ts';
import { createRequiredRole } from './required-role.ts';
import { publishingStorage } from '../../kernel/change-feed/publishing-storage.ts';
import { resolveOps } from '../../kernel/ops/install-ops.ts';
import type { Clock } from '../../core/clock/index.ts';
import type { LoopConfig } from './config.ts';
import type { Storage, UsageRecorder } from '../../kernel/ports/index.ts';
import type { ServiceContext, ServiceOptions } from './feature.ts';

/** What every feature is installed with: the request basics every route inherits, and the publishing storage. */
export function createServiceContext(
  app: FastifyInstance,
  input: {
    config: LoopConfig;
    storage: Storage;
    clock: Clock;
    bundle: VersionBundle;
    api: ServiceContext['api'];
    options: ServiceOptions;
    /** Every per-request step of the product, in order: the pipeline runs them so and refuses others. */
    steps: readonly ListedStep[];
  },
): ServiceContext {
  const { config, clock, bundle, api, options } = input;
  // Before any part installs a step: each installs its own from the product's one list, which orders them.
  listSteps(app, input.steps, api.prefix);
  // First of all hooks: every later one (limits, roles, the lifecycle, usage, forwarding) sees one canonical path.
  provideSteps({ app, prefix: api.prefix }, [[strictRequestsKey, {}]]);
  // Here, before any feature's plugin context exists, so that every route inherits it (the forwarded API too).
  provideSteps(app, [[lingeringCloseKey, {}]]);
  const ops = resolveOps(options.ops);
  const storage = publishingStorage({ storage: input.storage, feed: ops.changeFeed });
  installJsonBody(app, { types: ['application/json', 'application/merge-patch+json'] });
  return {
    app,
    config,
    storage,
    bundle,
    clock,
    recorder: discardingRecorder,
    ops,
    options,
    api,
    requiredRole: createRequiredRole(api.prefix),
  };
}

/** A recorder that keeps nothing: the loop without its usage part. */
const discardingRecorder: UsageRecorder = {
  record: () => {},
  flush: async () => {},
  close: async () => {},
  stats: () => ({ buffered: 0, shed: 0, failures: 0 }),
};
