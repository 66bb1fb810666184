import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import { resolveVersion } from '../../core/negotiation/index.ts';
import { fromFrameworkError, handleClientError, installJsonBody, sendProblem } from '../../http/index.ts';
import { createVersionRewriter, installCaching, installProblemHandling, installSecurityHeaders, type VersionedRequestHook } from '../../http/index.ts';
import { versionary } from '../../http/plugin/index.ts';
import { createApiBundle } from '../api/index.ts';
import type { ServiceConfig } from '../config/load-config.ts';
import type { Storage } from '../ports/index.ts';
import { createPostHandlers } from '../resources/posts.ts';
import { createUserHandlers } from '../resources/users.ts';
import { registerProblemDocs } from './problem-docs.ts';
import { createVersionDocument } from '../openapi/version-document.ts';
import { registerManagementDocument } from '../openapi/management-document.ts';
import { serializeRequest } from './log-serializers.ts';
import { parseTimeoutSettings, toServerOptions } from './timeouts.ts';
import { echo, ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../core/lifecycle/index.ts';
import { registerApiKeyRoutes } from '../admin/api-key-routes.ts';
import { createApiKey } from '../auth/api-keys.ts';
import { installAuthentication, installAuthorization } from '../auth/authenticate.ts';
import { createJwtVerifier } from '../auth/jwt.ts';
import { clientIdOf, usageIdentityOf } from '../auth/principal.ts';
import { registerEndpointAdminRoutes } from '../admin/endpoint-routes.ts';
import { registerVersionAdminRoutes } from '../admin/version-routes.ts';
import { createApiKeyCache } from '../auth/key-cache.ts';
import { registerLifecycleRoutes } from '../lifecycle/routes.ts';
import { installRemovedVersionGate, removedDocumentInfo } from '../lifecycle/removed-gate.ts';
import { registerPortal } from '../portal/index.ts';
import { createLifecycleRuntime } from '../lifecycle/runtime.ts';
import { parseLifecycleSettings } from '../lifecycle/settings.ts';
import { installIdempotency } from '../idempotency/install-idempotency.ts';
import { createMemoryRateLimitStore, installAddressRateLimit, installRateLimit, parseRateLimitSettings, type RateLimitStore } from '../rate-limit/index.ts';
import { createUsageRecorder, type UsageRecorder } from '../usage/usage-recorder.ts';
import { publishingStorage } from '../change-feed/publishing-storage.ts';
import { installOps, resolveOps, type OpsWiring } from '../ops/install-ops.ts';
import { requestIdOf } from '../ops/request-id.ts';
import { installClients, parseClientSettings } from '../clients/install-clients.ts';
import { registerNotices } from '../notices/register-notices.ts';
import { routeUrlOf } from '../../http/route-url.ts';

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
}

export const apiPrefix = '/api';
/** Release dates of the built-in versions, used when the config file gives none. */
export const builtInReleases: Record<string, string> = { v1: '2025-01-15T00:00:00Z', v2: '2026-03-02T00:00:00Z' };
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
  const { config, clock } = options;
  const ops = resolveOps(options.ops);
  const storage = publishingStorage({ storage: options.storage, feed: ops.changeFeed });
  const bundle = options.bundle ?? createApiBundle();
  const errors: string[] = [];
  const settings = parseLifecycleSettings({ file: config.file, errors });
  const rateLimit = parseRateLimitSettings({ file: config.file, errors });
  const timeouts = toServerOptions(parseTimeoutSettings({ file: config.file, errors }));
  const clientSettings = parseClientSettings({ file: config.file, errors });
  if (errors.length > 0) {
    throw new VersionaryError({ code: ErrorCode.InvalidConfig, detail: `The configuration has ${errors.length} error(s):\n- ${errors.join('\n- ')}` });
  }
  const runtime = await createLifecycleRuntime({
    settings, store: storage.lifecycle, clock, prefix: apiPrefix,
    versions: releaseDates(bundle),
    defaultDeprecated: bundle.versions.slice(0, -1).map((v) => v.name),
  });
  const app = Fastify({
    logger: {
      level: config.logLevel, redact: ['req.headers.authorization', 'req.headers["x-api-key"]'], serializers: { req: serializeRequest },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    bodyLimit: config.bodyLimit,
    ...timeouts,
    // Room for large tokens, so an oversized credential gets a 401 problem rather than a bare 431.
    http: { ...timeouts.http, maxHeaderSize: 64 * 1024 },
    // Parser errors (431, 408, bad chunking, request smuggling attempts) are problems too.
    clientErrorHandler: handleClientError,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Closing is handled in the composition root, which answers with a problem body, not Fastify's plain JSON.
    return503OnClosing: false,
    genReqId: requestIdOf,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2000 },
    // Router failures (bad percent-encoding, oversized parameters) name no resource: a 404 problem.
    frameworkErrors: (error, request, reply) => sendProblem(reply, fromFrameworkError(error) ?? new VersionaryError({ code: ErrorCode.NotFound, detail: `No resource at ${echo(request.url.split('?')[0]!)}.` })),
    rewriteUrl: createVersionRewriter({ bundle, prefix: apiPrefix, vendor, reserved: ['versions'] }),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: true } },
  });
  installJsonBody(app, { types: ['application/json', 'application/merge-patch+json'] });
  for (const warning of runtime.warnings) app.log.warn({ rule: warning.rule }, warning.detail);
  const recorder = options.recordUsage === false ? discardingRecorder : createUsageRecorder({ store: storage.usage, log: app.log, keepRaw: clientSettings.usage.rawRetentionDays > 0 });
  app.addHook('onClose', async () => {
    await recorder.close();
  });
  installOps(app, { ...(options.ops ? { wiring: options.ops } : {}), ops, storage, runtime, recorder });
  // Any version the lifecycle knows as removed, with or without code: unrouted paths under it answer its 410/404 too.
  const removedVersion = (name: string) => (runtime.versions().some((v) => v.name === name) ? runtime.verdict({ version: name, method: 'GET', path: '/' }).removed : undefined);
  installSecurityHeaders(app);
  installProblemHandling(app, { bundle, prefix: apiPrefix, vendor, removedVersion });
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(runtime.listHeaders());
  });
  installRemovedVersionGate(app, { runtime, recorder, clock, prefix: apiPrefix, clientIdOf });
  const removedInfo = (name: string) => removedDocumentInfo({ runtime, name, status: settings.removedStatus });
  const jwt = config.jwt ? await createJwtVerifier(config.jwt, () => clock.now()) : undefined;
  const limits = { settings: rateLimit, store: options.rateLimitStore ?? createMemoryRateLimitStore(), clock };
  // Before authentication: anonymous traffic and addresses over their budget cost no database read.
  installAddressRateLimit(app, limits);
  installAuthentication(app, { apiKeys: storage.apiKeys, keyCache: createApiKeyCache({ feed: ops.changeFeed, now: () => clock.now() }), ...(jwt ? { jwt } : {}), ...(config.adminKey ? { adminKey: config.adminKey } : {}) });
  // Between authentication and authorization, so failed credentials are counted (per IP) too.
  installRateLimit(app, limits);
  installAuthorization(app, { requirement: requiredRole });
  installIdempotency(app, { store: storage.idempotency, clock, applies: (r) => r.method === 'POST' && requiredRole(r) === 'write' });
  if (!config.adminKey && (await storage.apiKeys.countActiveAdmins()) === 0) {
    const { key } = await createApiKey({ store: storage.apiKeys, name: 'bootstrap admin', roles: ['admin'], now: clock.now() });
    options.onBootstrapKey?.(key);
  }
  installCaching(app, { isPrivate: (request) => requiredRole(request) !== undefined });
  registerProblemDocs(app);

  const handlers = { ...createUserHandlers({ users: storage.users, clock }), ...createPostHandlers({ ...storage, clock }) };
  // Before any admin route (notices add some): its onRoute hook documents each one.
  registerManagementDocument(app, { prefix: '/admin/v1', jwt: jwt !== undefined });
  const notices = await registerNotices(app, { config, storage, runtime, bundle, clock, flushUsage: () => recorder.flush(), removedStatus: settings.removedStatus, apiPrefix });
  // The same plugin library users register, fed by the storage-backed lifecycle runtime.
  await app.register(versionary, {
    bundle, handlers, prefix: apiPrefix, vendor, clientIdOf, clock, lifecycle: runtime, onUsage: (call, request) => recorder.record({ ...call, ...usageIdentityOf(request) }),
    // openapi: false, because the service serves richer documents below (security, every status, headers).
    onVersionedRequest: options.onVersionedRequest ?? [], openapi: false,
    problems: false, versionListHeaders: false, versionsDocument: false,
  });
  registerLifecycleRoutes(app, { bundle, runtime, clock, prefix: apiPrefix });
  registerPortal(app, { bundle, runtime, clock, prefix: apiPrefix, storage, brownouts: () => notices.brownouts(), flushUsage: () => recorder.flush(), ...(config.adminKey ? { adminKey: config.adminKey } : {}), ...(config.portalSecret ? { secret: config.portalSecret } : {}) });
  await app.register(async (admin) => {
    admin.removeContentTypeParser('text/plain'); // The management API takes JSON only: other bodies are 415.
    registerApiKeyRoutes(admin, { apiKeys: storage.apiKeys, clients: storage.clients, clock, envAdminKey: config.adminKey !== undefined });
    installClients(admin, { storage, settings: clientSettings, clock, flushUsage: () => recorder.flush() });
    const shared = { runtime, lifecycle: storage.lifecycle, settings, clock };
    registerVersionAdminRoutes(admin, { ...shared, usage: storage.usage, flushUsage: () => recorder.flush() });
    registerEndpointAdminRoutes(admin, { ...shared, bundle });
  }, { prefix: '/admin/v1' });

  for (const version of bundle.versions) {
    app.get(`${apiPrefix}/${version.name}/openapi.json`, async (request) => {
      resolveVersion({ pathVersion: version.number, accept: request.headers.accept, supported: bundle.versions.map((v) => v.name), vendor });
      // Built per request: the lifecycle (deprecations, sunsets) can change while the service runs.
      return createVersionDocument({
        version, title: 'Versionary users and posts API', basePath: `${apiPrefix}/${version.name}`, jwt: jwt !== undefined, info: removedInfo(version.name),
        lifecycle: (op) => {
          const verdict = runtime.verdict({ version: version.name, method: op.method, path: op.path });
          return { deprecated: verdict.deprecated, removedStatus: settings.removedStatus, ...(verdict.sunsetAt !== undefined ? { sunsetAt: formatIsoInstant(verdict.sunsetAt) } : {}) };
        },
      });
    });
  }
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/', async () => ({
    name: 'Versionary reference service',
    versions: runtime.document().versions.map((v) => ({
      name: v.name, state: v.state, removed: v.state === 'removed', base: `${apiPrefix}/${v.name}`,
      openapi: bundle.get(v.name) ? `${apiPrefix}/${v.name}/openapi.json` : null,
    })),
  }));
  return app;
}

const discardingRecorder: UsageRecorder = { record: () => {}, flush: async () => {}, close: async () => {}, stats: () => ({ buffered: 0, shed: 0, failures: 0 }) };

/** Release instants of the bundle's versions: built-in dates, else a year after the one before. */
function releaseDates(bundle: VersionBundle): Array<{ name: string; releasedAt: number }> {
  let previous = 0;
  return bundle.versions.map((v) => {
    const releasedAt = parseIsoInstant(builtInReleases[v.name] ?? '') ?? previous + 366 * 86_400_000;
    previous = releasedAt;
    return { name: v.name, releasedAt };
  });
}

const versionedResource = new RegExp(`^${apiPrefix}/v[0-9]+/(?!openapi\\.json$)`);

/**
 * Resources need read (safe methods) or write; the management API needs admin; the rest is public.
 * Decided from the matched route's pattern, never the raw URL: the router decodes `%61dmin` and
 * routes absolute-form targets, so a string test on the URL could be walked around.
 */
function requiredRole(request: FastifyRequest): 'read' | 'write' | 'admin' | undefined {
  const route = routeUrlOf(request);
  if (route === undefined) return undefined;
  if (route.startsWith('/admin/') || route === '/metrics') return 'admin';
  if (!versionedResource.test(route)) return undefined;
  return ['GET', 'HEAD', 'OPTIONS'].includes(request.method) ? 'read' : 'write';
}
