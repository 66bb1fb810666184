import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock/index.ts';
import type { VersionBundle } from '../core/versions/index.ts';
import type { OperationHandler } from '../http/index.ts';
import type { ServiceFeature } from '../service/app/feature.ts';
import type { AppIdentity } from '../service/auth/principal.ts';
import { serviceFeatures } from '../service/app/features.ts';
import { installService } from '../service/app/install-service.ts';
import { serviceServerOptions } from '../service/app/server-options.ts';
import { loadConfig } from '../service/config/load-config.ts';
import type { NoticeChannel } from '../service/notices/channel.ts';
import type { Storage } from '../service/ports/index.ts';
import { createResourcesFeature, resourcesFeature } from '../service/resources/feature.ts';
import { rootFeature } from '../service/app/root-feature.ts';
import { openStorage } from './open-storage.ts';
import { closeSharedState, openSharedState } from './shared-state.ts';

/**
 * Options of {@link versionaryLoop}.
 *
 * @example
 * ```ts
 * const options: VersionaryLoopOptions = { bundle, handlers, vendor: 'books', title: 'Books API', settings: { versions: { v1: { deprecatedAt, sunsetAt } } } };
 * ```
 */
export interface VersionaryLoopOptions {
  /** The API's versions and operations (`defineVersions`). */
  bundle: VersionBundle;
  /** One handler per operation id, in the newest representation; or a function of the loop's storage and clock. */
  handlers:
    | Record<string, OperationHandler>
    | ((context: { storage: Storage; clock: Clock }) => Record<string, OperationHandler>);
  /** The vendor of the API's media types: `application/vnd.<vendor>.v2+json`. */
  vendor: string;
  /** The title of the API's documents and docs pages. */
  title: string;
  /** Where the versioned API lives; `/api` by default. */
  prefix?: string;
  /**
   * The environment, read as the reference service reads it: `DATABASE_URL` (a SQLite file by
   * default, or `postgres://…`), `VERSIONARY_ADMIN_KEY`, `VERSIONARY_SMTP_URL`,
   * `VERSIONARY_MAIL_FROM`, `VERSIONARY_NOTICE_SECRET`, `VERSIONARY_PORTAL_SECRET`,
   * `VERSIONARY_JWT_*`. `process.env` by default.
   */
  env?: Record<string, string | undefined>;
  /**
   * The settings the reference service reads from its config file, as an object: `versions`
   * (each version's lifecycle), `endpointDeprecations`, `audience`, `rateLimit`, `notices`,
   * `webhooks`, `usage`, `publicUrl`… Every error is reported at once, at registration.
   */
  settings?: Record<string, unknown>;
  /** Absolute base of the links in notices and the portal; overrides `settings.publicUrl`. */
  publicUrl?: string;
  /** Told the first admin key, once, when the first start creates it (no `VERSIONARY_ADMIN_KEY`). */
  onBootstrapKey?: (key: string) => void;
  /** Notice channels beside email and webhooks. */
  noticeChannels?: readonly NoticeChannel[];
  /**
   * Your own authentication, asked first on every request: return the client the call comes from
   * and its roles (`read`, `write`, `admin`), or `undefined` to fall back to Versionary's API keys
   * and JWTs. Usage, notices, rate limits and the management API's roles follow the identity.
   */
  identify?: (request: FastifyRequest) => AppIdentity | undefined | Promise<AppIdentity | undefined>;
  clock?: Clock;
}

const settingsPath = '<versionaryLoop settings>';

/**
 * The whole deprecation loop in your own Fastify app: your versioned operations (through the
 * `versionary` routing plugin), API keys and clients, usage per client, the stored lifecycle and
 * its management API under `/admin/v1`, email and webhook notices with brownouts, the portal with
 * docs pages and dashboards, probes and metrics, on a database of its own (SQLite by file, or
 * PostgreSQL by URL). It installs the reference service's own features: the reference service is
 * this plugin with users and posts.
 *
 * Spread {@link loopServerOptions} into `Fastify()`: negotiation by `Accept` and strict validation
 * are construction options, which no plugin can set.
 *
 * @example
 * ```ts
 * const app = Fastify({ ...loopServerOptions({ bundle, vendor: 'books' }), logger: true });
 * await app.register(versionaryLoop, { bundle, handlers, vendor: 'books', title: 'Books API', settings: { versions: { v1: { … } } } });
 * ```
 */
export const versionaryLoop = fp(
  async (app: FastifyInstance, options: VersionaryLoopOptions) => {
    const env = { ...(options.env ?? process.env) };
    const file = { ...options.settings, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}) };
    const config = loadConfig({
      env: { ...env, DATABASE_URL: env.DATABASE_URL ?? 'sqlite:./data/versionary.db', VERSIONARY_CONFIG: settingsPath },
      readFile: (path) => (path === settingsPath ? JSON.stringify(file) : readFileSync(path, 'utf8')),
    });
    const clock = options.clock ?? { now: Date.now };
    const storage = await openStorage(config.database, { ops: config.ops });
    // Several instances share the lifecycle and keys through the change feed (Redis, else
    // PostgreSQL), and rate-limit windows through Redis, as the reference service does.
    const shared = await openSharedState({ config, log: app.log as unknown as Logger }).catch(
      async (error: unknown) => {
        await storage.close();
        throw error;
      },
    );
    const handlers = options.handlers;
    // The reference service's features, with the app's operations in place of users and posts, and
    // no `/` (the app owns its root).
    const features: ServiceFeature[] = serviceFeatures
      .filter((feature) => feature !== rootFeature)
      .map((feature) =>
        feature === resourcesFeature
          ? createResourcesFeature((context) => (typeof handlers === 'function' ? handlers(context) : handlers))
          : feature,
      );
    // onClose hooks run last-registered first: registered before the features', this one runs after
    // theirs (the usage buffer, the outbox), so the database closes last.
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await closeSharedState(shared);
      await storage.close();
    };
    app.addHook('onClose', close);
    try {
      const { flushUsage } = await installService(app, {
        config,
        storage,
        clock,
        bundle: options.bundle,
        features,
        ...(shared.rateLimitStore ? { rateLimitStore: shared.rateLimitStore } : {}),
        ops: {
          changeFeed: shared.feed,
          reconcileMs: config.ops.reconcileMs,
          readinessChecks: shared.readinessChecks,
          ...(shared.rateLimitStore ? { rateLimitStore: shared.rateLimitStore } : {}),
        },
        api: { prefix: options.prefix ?? '/api', vendor: options.vendor, title: options.title },
        ...(options.onBootstrapKey ? { onBootstrapKey: options.onBootstrapKey } : {}),
        ...(options.noticeChannels ? { noticeChannels: options.noticeChannels } : {}),
        ...(options.identify ? { identify: options.identify } : {}),
      });
      app.addHook('preClose', async () => {
        await flushUsage();
      });
    } catch (error) {
      await close();
      throw error;
    }
  },
  { name: 'versionary-loop', fastify: '5.x' },
);

/**
 * The Fastify construction options the loop expects: `Accept` negotiation, request ids, problems
 * for parser and router failures, strict validation.
 *
 * @example
 * ```ts
 * const app = Fastify({ ...loopServerOptions({ bundle, vendor: 'books' }), logger: true });
 * ```
 */
export function loopServerOptions(options: {
  bundle: VersionBundle;
  vendor: string;
  prefix?: string;
}): FastifyServerOptions {
  return serviceServerOptions({
    bundle: options.bundle,
    api: { prefix: options.prefix ?? '/api', vendor: options.vendor },
  });
}
