import Fastify, { type FastifyInstance } from 'fastify';
import { createApiBundle } from './api/index.ts';
import type { BuildAppOptions } from '../kernel/app/feature.ts';
import { serviceFeatures } from './features.ts';
import { installService } from '../kernel/app/install-service.ts';
import { serializeRequest } from '../kernel/app/log-serializers.ts';
import { apiPrefix, builtInReleases, referenceApiInfo, vendor } from '../kernel/app/names.ts';
import { serviceServerOptions } from '../kernel/app/server-options.ts';
import { toServerOptions } from '../kernel/app/timeouts.ts';

export type { BuildAppOptions } from '../kernel/app/feature.ts';
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
  // The reference service's own release dates, unless the composition says otherwise (the gateway gives none).
  const releases = options.releases ?? builtInReleases;
  const { flushUsage } = await installService(app as FastifyInstance, {
    ...options,
    bundle,
    api,
    releases,
    features: options.features ?? serviceFeatures,
  });
  return Object.assign(app as FastifyInstance, { flushUsage });
}

/** The built service: a Fastify app, plus what the composition root calls on shutdown. */
export type ServiceApp = FastifyInstance & {
  /** Write the buffered usage records now (the first step of a shutdown, so a kill after it loses none). */
  flushUsage(): Promise<void>;
};
