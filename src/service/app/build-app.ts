import Fastify, { type FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { toOpenApiDocument, type VersionBundle } from '../../core/versions/index.ts';
import { createVersionRewriter, installCaching, installProblemHandling, registerVersionedApi, type VersionedRequestHook } from '../../http/index.ts';
import { createApiBundle } from '../api/index.ts';
import type { ServiceConfig } from '../config/load-config.ts';
import type { Storage } from '../ports/index.ts';
import { createPostHandlers } from '../resources/posts.ts';
import { createUserHandlers } from '../resources/users.ts';
import { registerProblemDocs } from './problem-docs.ts';

/** Options for {@link buildApp}. */
export interface BuildAppOptions {
  config: ServiceConfig;
  storage: Storage;
  clock: Clock;
  /** Defaults to the published versions; tests pass their own to add a version. */
  bundle?: VersionBundle;
  /** Runs once per versioned request after negotiation. */
  onVersionedRequest?: VersionedRequestHook[];
}

export const apiPrefix = '/api';
export const vendor = 'versionary';

/**
 * Build the service without listening: tests call `inject()`, `server.ts` calls `listen()`.
 *
 * @example
 * ```ts
 * const app = await buildApp({ config, storage, clock: { now: Date.now } });
 * ```
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, storage, clock } = options;
  const bundle = options.bundle ?? createApiBundle();
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers["x-api-key"]'] },
    bodyLimit: config.bodyLimit,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    rewriteUrl: createVersionRewriter({ bundle, prefix: apiPrefix, vendor, reserved: ['versions'] }),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: true } },
  });
  app.addContentTypeParser('application/merge-patch+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  installProblemHandling(app, { bundle, prefix: apiPrefix, vendor });
  installCaching(app);
  registerProblemDocs(app);

  const handlers = { ...createUserHandlers({ users: storage.users, clock }), ...createPostHandlers({ ...storage, clock }) };
  registerVersionedApi(app, { bundle, handlers, prefix: apiPrefix, vendor, onVersionedRequest: options.onVersionedRequest ?? [] });

  for (const version of bundle.versions) {
    const document = toOpenApiDocument({ version, title: 'Versionary users and posts API', basePath: `${apiPrefix}/${version.name}` });
    app.get(`${apiPrefix}/${version.name}/openapi.json`, async () => document);
  }
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/', async () => ({
    name: 'Versionary reference service',
    versions: bundle.versions.map((v) => ({ name: v.name, base: `${apiPrefix}/${v.name}`, openapi: `${apiPrefix}/${v.name}/openapi.json` })),
  }));
  return app;
}
