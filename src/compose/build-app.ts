import Fastify, { type FastifyInstance } from 'fastify';
import { pickDefined } from '../core/config/index.ts';
import type { Clock } from '../core/clock/index.ts';
import type { ServiceOptions } from '../loop/host/feature.ts';
import type { LoopProduct } from '../loop/product.ts';
import { partsContext } from '../loop/host/install-features.ts';
import type { LifecycleContext } from '../loop/lifecycle/context.ts';
import type { ServiceConfig } from '../loop/settings.ts';
import type { Storage } from '../kernel/ports/index.ts';
import { registerLoopParts, type VersionaryLoopOptions } from '../loop/preset.ts';
import type { StartFailure } from '../loop/host/start-failure.ts';
import { serializeRequest } from '../kernel/app/log-serializers.ts';
import { serviceServerOptions } from '../kernel/app/server-options.ts';
import { requestHeadLimit } from '../kernel/app/request-head.ts';
import { toServerOptions } from '../kernel/app/timeouts.ts';

export interface BuildAppOptions
  extends
    Pick<ServiceOptions, 'ops' | 'rateLimitStore'>,
    Pick<VersionaryLoopOptions, 'onBootstrapKey' | 'onVersionedRequest' | 'noticeChannels'> {
  product: LoopProduct;
  config: ServiceConfig;
  storage: Storage;
  clock: Clock;
  /** Record usage (the usage part). On unless `false`: the benchmark turns it off to measure its cost. */
  recordUsage?: boolean;
  logStream?: { write(line: string): void };
}

/** Build an app of the loop's parts for a product, without listening. */
export async function buildApp(options: BuildAppOptions): Promise<ServiceApp> {
  const { config, product } = options;
  const { bundle, api } = product;
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
    http: { ...timeouts.http, maxHeaderSize: requestHeadLimit },
    // Closing is handled in the composition root, which answers with a problem body, not Fastify's plain JSON.
    return503OnClosing: false,
  });
  // The same parts, in the same order, as `versionaryLoop` registers in a team's app. A part's start
  // failure names the part; the service reports the configuration's own error.
  const { releases, defaultDeprecated, ...access } = product.defaults;
  const state = await registerLoopParts(app as FastifyInstance, {
    bundle,
    vendor: api.vendor,
    title: api.title,
    prefix: api.prefix,
    ...(api.openapiVersion ? { openapiVersion: api.openapiVersion } : {}),
    clock: options.clock,
    host: {
      config,
      storage: options.storage,
      // Only the product's release dates: the reference service's are not another API's.
      releases: releases ?? {},
      ...(api.info ? { info: api.info } : {}),
      ...(defaultDeprecated ? { defaultDeprecated } : {}),
      ...pickDefined(options, ['ops', 'rateLimitStore']),
    },
    ...product.source,
    ...access,
    ownsApp: true,
    ...pickDefined(options, ['onVersionedRequest', 'onBootstrapKey', 'noticeChannels', 'recordUsage']),
  }).catch((error: unknown) => {
    throw (error as Partial<StartFailure>).versionaryError ?? error;
  });
  const context = partsContext(app as FastifyInstance, state) as LifecycleContext;
  for (const feature of product.features) await feature.install(context);
  const flushUsage = async () => {
    await Promise.all([context.recorder.flush(), context.operations?.flush()]);
  };
  return Object.assign(app as FastifyInstance, { flushUsage });
}

export type ServiceApp = FastifyInstance & {
  /** Write the buffered usage records now (the first step of a shutdown). */
  flushUsage(): Promise<void>;
};
