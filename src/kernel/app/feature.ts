import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import type { Brownout } from '../../core/notices/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { VersionedRequestHook } from '../../http/index.ts';
import type { AuthenticationOptions } from '../../loop/access/auth/authenticate.ts';
import type { JwtVerifier } from '../../loop/access/auth/jwt.ts';
import type { Role } from '../../loop/access/auth/principal.ts';
import type { ServiceConfig } from '../config/load-config.ts';
import type { LifecycleRuntime } from '../../loop/lifecycle/runtime.ts';
import type { NoticeChannel } from '../../loop/notices/channel.ts';
import type { OpsWiring, ResolvedOps } from '../ops/install-ops.ts';
import type { Storage } from '../ports/index.ts';
import type { RateLimitStore } from '../../loop/access/rate-limit/index.ts';
import type { OperationCounter } from '../../loop/usage/operation-counter.ts';
import type { UsageRecorder } from '../../loop/usage/usage-recorder.ts';
import type { ApiDocumentInfoSource } from '../../loop/lifecycle/openapi/api-info.ts';

// The service's shared types, in a leaf: build-app.ts installs the features, and each feature
// reads these, so none of them imports build-app.ts.

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
  options: BuildAppOptions;
  /**
   * Where the versioned API lives, the vendor of its media types, and what its documents say of
   * it: the title, and the description, license and contact when the app gave them.
   */
  api: { prefix: string; vendor: string; title: string; info?: ApiDocumentInfoSource };
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

/** Options for `buildApp`. */
export interface BuildAppOptions {
  config: ServiceConfig;
  storage: Storage;
  clock: Clock;
  /** Defaults to the published versions; tests pass their own to add a version. */
  bundle?: VersionBundle;
  /** Where rate-limit counters live; in memory by default (one instance). */
  rateLimitStore?: RateLimitStore;
  /** Told the bootstrap admin key, once, when the first start creates it. */
  onBootstrapKey?: (key: string) => void;
  /** Runs once per versioned request after negotiation. */
  onVersionedRequest?: VersionedRequestHook[];
  /** Record usage: calls to deprecated versions, and every version's calls per operation. On unless `false`: the benchmark turns it off to measure its cost. */
  recordUsage?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** Change feed, metrics, readiness and shutdown state, from the composition root (`docs/operations.md`). */
  ops?: OpsWiring;
  /** Notice channels beside email and webhooks (`docs/notices.md#your-own-channel`). */
  noticeChannels?: readonly NoticeChannel[];
  /** The features to install, in order; the service's own list (`features.ts`) by default. */
  features?: readonly ServiceFeature[];
  /** The app's own authentication, asked before Versionary's keys (`docs/loop.md#who-is-calling-versionarys-keys-or-yours`). */
  identify?: AuthenticationOptions['identify'];
  /** The roles a JWT's `scope` may grant (all three by default); the gateway's tokens never grant `admin`. */
  jwtRoles?: readonly Role[];
  /** Versions deprecated (for six months) at the first start when the config names none; every version but the newest by default. */
  defaultDeprecated?: string[];
  /** Replay `Idempotency-Key` writes (default true); off in the gateway, where the upstream owns its writes. */
  idempotency?: boolean;
  /**
   * Release dates (ISO instants) of versions whose config entry declares no `releasedAt`. `buildApp`
   * gives the reference service's own (`builtInReleases`) unless told otherwise; `installService`
   * none, so a team's API or the gateway never shows the demo's dates: an undated version shows none.
   */
  releases?: Readonly<Record<string, string>>;
  /** Where the versioned API lives, its media types' vendor and its documents' title; the reference service's by default. */
  api?: ServiceContext['api'];
}
