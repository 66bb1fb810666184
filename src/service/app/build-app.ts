import Fastify, { type FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { VersionedRequestHook } from '../../http/index.ts';
import { createApiBundle } from '../api/index.ts';
import type { AuthenticationOptions } from '../auth/authenticate.ts';
import type { Role } from '../auth/principal.ts';
import type { ServiceConfig } from '../config/load-config.ts';
import type { NoticeChannel } from '../notices/channel.ts';
import type { OpsWiring } from '../ops/install-ops.ts';
import type { Storage } from '../ports/index.ts';
import type { RateLimitStore } from '../rate-limit/index.ts';
import type { ServiceContext, ServiceFeature } from './feature.ts';
import { installService } from './install-service.ts';
import { serializeRequest } from './log-serializers.ts';
import { apiPrefix, vendor } from './names.ts';
import { serviceServerOptions } from './server-options.ts';
import { toServerOptions } from './timeouts.ts';

/** Options for {@link buildApp}. */
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
  /** Record calls to deprecated versions (usage monitoring). On unless `false`: the benchmark turns it off to measure its cost. */
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
  /** Where the versioned API lives, its media types' vendor and its documents' title; the reference service's by default. */
  api?: ServiceContext['api'];
}

export { apiPrefix, builtInReleases, vendor } from './names.ts';

/**
 * Build the service without listening: tests call `inject()`, `server.ts` calls `listen()`.
 *
 * @example
 * ```ts
 * const app = await buildApp({ config, storage, clock: { now: Date.now } });
 * ```
 */
export async function buildApp(options: BuildAppOptions): Promise<ServiceApp> {
  const { config } = options;
  const bundle = options.bundle ?? createApiBundle();
  const api = options.api ?? { prefix: apiPrefix, vendor, title: 'Versionary users and posts API' };
  const timeouts = toServerOptions(config.settings.timeouts);
  const app = Fastify({
    ...serviceServerOptions({ bundle, api }),
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]'],
      serializers: { req: serializeRequest },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    bodyLimit: config.bodyLimit,
    // A hop count is Fastify's too (its types name only strings and functions).
    ...(config.trustProxy !== undefined ? { trustProxy: config.trustProxy as string } : {}),
    ...timeouts,
    // Room for large tokens, so an oversized credential gets a 401 problem rather than a bare 431.
    http: { ...timeouts.http, maxHeaderSize: 64 * 1024 },
    // Closing is handled in the composition root, which answers with a problem body, not Fastify's plain JSON.
    return503OnClosing: false,
  });
  const { flushUsage } = await installService(app as FastifyInstance, { ...options, bundle, api });
  return Object.assign(app as FastifyInstance, { flushUsage });
}

/** The built service: a Fastify app, plus what the composition root calls on shutdown. */
export type ServiceApp = FastifyInstance & {
  /** Write the buffered usage records now (the first step of a shutdown, so a kill after it loses none). */
  flushUsage(): Promise<void>;
};
