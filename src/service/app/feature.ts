import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import type { Brownout } from '../../core/notices/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { JwtVerifier } from '../auth/jwt.ts';
import type { Role } from '../auth/principal.ts';
import type { ServiceConfig } from '../config/load-config.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { ResolvedOps } from '../ops/install-ops.ts';
import type { Storage } from '../ports/index.ts';
import type { UsageRecorder } from '../usage/usage-recorder.ts';
import type { BuildAppOptions } from './build-app.ts';

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
  ops: ResolvedOps;
  options: BuildAppOptions;
  /** Where the versioned API lives, the vendor of its media types, and its documents' title. */
  api: { prefix: string; vendor: string; title: string };
  /** The role a request needs, from its matched route (`auth/required-role.ts`). */
  requiredRole: (request: FastifyRequest) => Role | undefined;
  /** Set by the authentication feature when JWTs are configured; the documents describe them. */
  jwt?: JwtVerifier;
  /** Set by the notices feature: the brownouts the portal shows. */
  brownouts?: () => Brownout[];
}

/**
 * One feature of the service, in the folder of its own: what it installs into the app. The
 * service is the list of its features (`features.ts`), installed in order; a feature that reads
 * the config file also lists its settings in `settings.ts`.
 */
export interface ServiceFeature {
  name: string;
  install(context: ServiceContext): void | Promise<void>;
}
