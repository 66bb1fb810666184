import Fastify, { type FastifyInstance } from 'fastify';
import { pickDefined } from '../core/config/index.ts';
import { createApiBundle } from '../reference/api/index.ts';
import type { Clock } from '../core/clock/index.ts';
import type { VersionBundle } from '../core/versions/index.ts';
import type { ServiceContext, ServiceFeature, ServiceOptions } from '../loop/host/feature.ts';
import { flushUsage } from '../loop/usage/install-usage.ts';
import type { ServiceConfig } from '../loop/host/config.ts';
import type { Storage } from '../kernel/ports/index.ts';
import type { LoopForward } from '../loop/lifecycle/forward-feature.ts';
import { registerLoopParts } from '../loop/preset.ts';
import type { StartFailure } from '../loop/host/start-failure.ts';
import type { LoopLifecycleOptions } from '../loop/lifecycle/options.ts';
import { referenceHandlers } from '../reference/resources/feature.ts';
import { rootFeature } from '../reference/root-feature.ts';
import { serializeRequest } from '../kernel/app/log-serializers.ts';
import { apiPrefix, builtInReleases, vendor } from '../kernel/app/names.ts';
import { referenceApiInfo } from '../reference/api-info.ts';
import { serviceServerOptions } from '../kernel/app/server-options.ts';
import { toServerOptions } from '../kernel/app/timeouts.ts';

/** Options for `buildApp`: what `src/server.ts` read and opened, and the seams tests and the bench use. */
export interface BuildAppOptions extends ServiceOptions {
  config: ServiceConfig;
  storage: Storage;
  clock: Clock;
  /** Defaults to the published versions; tests pass their own to add a version. */
  bundle?: VersionBundle;
  /** Record usage (the usage part). On unless `false`: the benchmark turns it off to measure its cost. */
  recordUsage?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** Where the versioned API lives, its media types' vendor and its documents' title; the reference service's by default. */
  api?: ServiceContext['api'];
  /** The API's handlers; users and posts by default. */
  handlers?: LoopLifecycleOptions['handlers'];
  /** Instead of handlers, forward every version upstream (the gateway). */
  forward?: LoopForward;
  /** `false`: no `/` page or `/healthz` (the gateway's upstream's API is not ours to describe there). */
  root?: boolean;
  /** More features, installed after the loop's parts with their context (the reader of nginx's usage log). */
  features?: readonly ServiceFeature[];
}
export { apiPrefix, builtInReleases, vendor } from '../kernel/app/names.ts';

/** Build the service without listening: tests call `inject()`, `server.ts` calls `listen()`. */
export async function buildApp(options: BuildAppOptions): Promise<ServiceApp> {
  const { config } = options;
  const bundle = options.bundle ?? createApiBundle();
  const api = options.api ?? {
    prefix: apiPrefix,
    vendor,
    title: 'Versionary users and posts API',
    info: referenceApiInfo,
  };
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
  // The loop's parts are the whole app: the same parts, in the same order, as `versionaryLoop`
  // registers in a team's app, on the root, with what the server read and opened as their seams.
  // A part's start failure names the part; the service reports the configuration's own error, as it did before it listened.
  const state = await registerParts(app as FastifyInstance, {
    bundle,
    vendor: api.vendor,
    title: api.title,
    prefix: api.prefix,
    clock: options.clock,
    host: {
      config,
      storage: options.storage,
      // The reference service's own release dates, unless the composition says otherwise (the gateway gives none).
      releases: options.releases ?? builtInReleases,
      ...(api.info ? { info: api.info } : {}),
      ...pickDefined(options, ['ops', 'rateLimitStore', 'defaultDeprecated']),
    },
    ...(options.forward ? { forward: options.forward } : { handlers: options.handlers ?? referenceHandlers }),
    ownsApp: true,
    ...pickDefined(options, [
      'onVersionedRequest',
      'identify',
      'onBootstrapKey',
      'jwtRoles',
      'idempotency',
      'noticeChannels',
      'recordUsage',
    ]),
  });
  if (options.root !== false) await rootFeature.install(state.context);
  for (const feature of options.features ?? []) await feature.install(state.context);
  return Object.assign(app as FastifyInstance, { flushUsage: () => flushUsage(app as FastifyInstance) });
}

async function registerParts(app: FastifyInstance, options: Parameters<typeof registerLoopParts>[1]) {
  try {
    return await registerLoopParts(app, options);
  } catch (error) {
    throw (error as Partial<StartFailure>).versionaryError ?? error;
  }
}

/** The built service: a Fastify app, plus what the composition root calls on shutdown. */
export type ServiceApp = FastifyInstance & {
  /** Write the buffered usage records now (the first step of a shutdown, so a kill after it loses none). */
  flushUsage(): Promise<void>;
};
