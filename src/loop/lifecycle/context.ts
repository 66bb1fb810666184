import type { FastifyInstance } from 'fastify';
import type { ServiceContext, ServiceOptions } from '../host/feature.ts';
import { provideToLaterParts } from '../host/provided.ts';
import type { OperationCounter } from '../usage/operation-counter.ts';
import type { VersionedRequestHook } from '../../http/index.ts';
import { releaseDates } from './policy-check.ts';
import { createLifecycleRuntime, type LifecycleRuntime } from './runtime.ts';
import { lifecycleSection } from './settings.ts';

/** What the lifecycle part's features, and every later part's, are installed with. */
export interface LifecycleContext extends ServiceContext {
  runtime: LifecycleRuntime;
  /** Counts every call of every version per operation and client (the usage part's); absent when counting is off. */
  operations?: OperationCounter;
  /** With the lifecycle part's `onVersionedRequest` (its options' type imports the features: not named here). */
  options: ServiceOptions & { onVersionedRequest?: VersionedRequestHook[] };
}

/** Load the stored lifecycle, log its warnings and conflicts once, and provide it to the later parts. */
export async function provideLifecycleRuntime(
  scope: FastifyInstance,
  context: ServiceContext,
): Promise<LifecycleRuntime> {
  const { config, storage, clock, bundle, api, options } = context;
  const settings = lifecycleSection.of(config);
  const runtime = await createLifecycleRuntime({
    settings,
    store: storage.lifecycle,
    grants: storage.extendedAccess,
    clock,
    prefix: api.prefix,
    versions: releaseDates(bundle, options.releases),
    defaultDeprecated: options.defaultDeprecated ?? bundle.versions.slice(0, -1).map((v) => v.name),
  });
  for (const warning of runtime.warnings) scope.log.warn({ rule: warning.rule }, warning.detail);
  for (const c of runtime.configConflicts)
    scope.log.warn(
      { code: 'lifecycle-config-conflict', version: c.version, winner: c.winner, fields: c.fields },
      c.detail,
    );
  for (const warning of settings.warnings ?? []) scope.log.warn({ code: warning.code }, warning.detail);
  provideToLaterParts(scope, { runtime });
  return runtime;
}
