import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import type { Brownout } from '../../core/notices/index.ts';
import type { OpenApiVersion, VersionBundle } from '../../core/versions/index.ts';
import type { Role } from '../../kernel/ports/principal.ts';
import type { ServiceConfig } from './config.ts';
import type { LoopAccessOptions } from '../access/options.ts';
import type { VersionedRequestHook } from '../../http/index.ts';
import type { LoopNoticesOptions } from '../notices/options.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { OpsWiring, ResolvedOps } from '../../kernel/ops/install-ops.ts';
import type { ExtendedAccessDecisionNotifier, Storage, UsageRecorder } from '../../kernel/ports/index.ts';
import type { RateLimitStore } from '../access/rate-limit/index.ts';
import type { OperationCounter } from '../usage/operation-counter.ts';
import type { ApiDocumentInfoSource } from './api-info.ts';

// The parts' shared types, in a leaf: the storage part makes the context, and each feature reads
// these, so none of them imports a part.

/** What every feature of the service is installed with: the app, its config and its shared parts. */
export interface ServiceContext {
  app: FastifyInstance;
  config: ServiceConfig;
  /** Storage that announces each write on the change feed. */
  storage: Storage;
  bundle: VersionBundle;
  clock: Clock;
  runtime: LifecycleRuntime;
  recorder: UsageRecorder;
  /** Counts every call of every version per operation and client (the plugin's `onCall`); absent when counting is off. */
  operations?: OperationCounter;
  ops: ResolvedOps;
  options: ServiceOptions;
  /**
   * Where the versioned API lives, the vendor of its media types, and what its documents say of
   * it: the title, and the description, license and contact when the app gave them.
   */
  api: {
    prefix: string;
    vendor: string;
    title: string;
    info?: ApiDocumentInfoSource;
    /** The OpenAPI version of the API's documents (`3.1` unless the app asked for `3.2`). */
    openapiVersion?: OpenApiVersion;
  };
  /** The role a request needs, from its matched route (`auth/required-role.ts`). */
  requiredRole: (request: FastifyRequest) => Role | undefined;
  /** The brownouts the portal shows: set by the notices feature, provided by its part to the parts after it. */
  brownouts?: () => Brownout[];
  /** Tells a client of the owner's decision on its request: set by the notices feature, provided by its part. */
  decisionNotices?: ExtendedAccessDecisionNotifier;
}

/**
 * One feature of a part of the loop: what it installs into the app. Each part installs its
 * features in order (`src/loop/<part>/part.ts`); a feature that reads the config file also lists
 * its settings in `src/kernel/app/settings.ts`.
 */
export interface ServiceFeature {
  name: string;
  install(context: ServiceContext): void | Promise<void>;
}

/**
 * What the parts' features read beside the context: the seams an app (the reference service, the
 * gateway, a team's app) hands the loop's parts, and each part's own options, declared once in
 * its schema (`loop/<part>/options.ts`).
 */
export interface ServiceOptions extends LoopAccessOptions, LoopNoticesOptions {
  /** Runs once per versioned request after negotiation (the lifecycle part's option). */
  onVersionedRequest?: VersionedRequestHook[];
  /** Where rate-limit counters live; in memory by default (one instance). */
  rateLimitStore?: RateLimitStore;
  /** Change feed, metrics, readiness and shutdown state, from the composition root (`docs/operations.md`). */
  ops?: OpsWiring;
  /** Versions deprecated (for six months) at the first start when the config names none; every version but the newest by default. */
  defaultDeprecated?: string[];
  /**
   * Release dates (ISO instants) of versions whose config entry declares no `releasedAt`: none by
   * default, so a team's API or the gateway never shows the reference service's dates.
   */
  releases?: Readonly<Record<string, string>>;
}
