import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../core/clock/index.ts';
import type { VersionBundle } from '../core/versions/index.ts';
import type { OperationHandler } from '../http/index.ts';
import type { AppIdentity } from '../service/auth/principal.ts';
import { serviceServerOptions } from '../service/app/server-options.ts';
import type { NoticeChannel } from '../service/notices/channel.ts';
import type { Storage } from '../service/ports/index.ts';
import { loopEnv } from './loop-env.ts';
import { assertPeers, peersFor } from './peer-packages.ts';
import { readableStartFailure } from './start-failure.ts';

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
   * The loop's database: `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. It wins over a
   * `DATABASE_URL` in `env`; without either, `sqlite:./data/versionary.db`.
   */
  database?: string;
  /**
   * Variables read as the reference service reads its environment: `DATABASE_URL` (a SQLite file
   * by default, or `postgres://…`), `VERSIONARY_ADMIN_KEY`, `VERSIONARY_SMTP_URL`,
   * `VERSIONARY_MAIL_FROM`, `VERSIONARY_NOTICE_SECRET`, `VERSIONARY_PORTAL_SECRET`,
   * `VERSIONARY_JWT_*`. None by default: the loop never reads `process.env` on its own; pass
   * `env: process.env` to have it read the process's environment.
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
    // Every package this configuration needs, named at once, before any of them is imported.
    assertPeers(peersFor({ env: loopEnv(options), surface: 'loop' }));
    const { installLoop } = await import('./install-loop.ts');
    // The body in a context of its own: the hooks, error handler, parsers and decorators it adds
    // apply to the routes it registers, never to the app's. This wrapper stays `fastify-plugin`
    // so that a `prefix` given to `register` is the loop's option, not a second prefix.
    try {
      await app.register(async function versionaryLoopContext(loop) {
        await installLoop(loop, options);
      });
    } catch (error) {
      throw readableStartFailure(error, 'versionary/loop');
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
