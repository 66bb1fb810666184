import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import type { Brownout } from '../../core/notices/index.ts';
import type { OpenApiVersion, VersionBundle } from '../../core/versions/index.ts';
import type { Role } from '../../kernel/ports/principal.ts';
import type { LoopConfig } from './config.ts';
import type { OpsWiring, ResolvedOps } from '../../kernel/ops/install-ops.ts';
import type { ExtendedAccessDecisionNotifier, Storage, UsageRecorder } from '../../kernel/ports/index.ts';
import type { RateLimitStore } from '../../kernel/ports/rate-limit.ts';
import type { ApiDocumentInfoSource } from './api-info.ts';

// The types every part shares, beneath them all: they name no part.

/** What every feature is installed with, as the storage part makes it, with what earlier parts provide. */
export interface ServiceContext {
  app: FastifyInstance;
  config: LoopConfig;
  /** Storage that announces each write on the change feed. */
  storage: Storage;
  bundle: VersionBundle;
  clock: Clock;
  /** Records calls of deprecated subjects: provided by the usage part, discarding without it. */
  recorder: UsageRecorder;
  ops: ResolvedOps;
  options: ServiceOptions;
  api: {
    prefix: string;
    vendor: string;
    title: string;
    info?: ApiDocumentInfoSource;
    /** The OpenAPI version of the API's documents (`3.1` unless the app asked for `3.2`). */
    openapiVersion?: OpenApiVersion;
  };
  /** The role a request needs, from its matched route (`host/required-role.ts`). */
  requiredRole: (request: FastifyRequest) => Role | undefined;
  /** The brownouts the portal shows: provided by the notices part to the parts after it. */
  brownouts?: () => Brownout[];
  /** Tells a client of the owner's decision on its request: provided by the notices part. */
  decisionNotices?: ExtendedAccessDecisionNotifier;
}

/** One feature of a part: what it installs into the app, with the context its own type names. */
export interface ServiceFeature<Context extends ServiceContext = ServiceContext> {
  name: string;
  install(context: Context): void | Promise<void>;
}

/** The seams an app hands every part, beside each part's own options. */
export interface ServiceOptions {
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
