import type { Clock } from '../../core/clock/index.ts';
import type { LifecycleConfig } from '../../core/lifecycle/index.ts';
import type { OpenApiVersion, VersionBundle } from '../../core/versions/index.ts';
import type { JwtConfig } from '../../kernel/config/load-config.ts';
import type { Storage } from '../../kernel/ports/index.ts';
import type { LoopConfig } from '../host/config.ts';
import type { ServiceOptions } from '../host/feature.ts';
import type { ApiDocumentInfo, ApiDocumentInfoSource } from '../host/api-info.ts';

/**
 * Options of {@link versionaryLoopStorage}: what the API is (its bundle, vendor, title and prefix),
 * where the loop keeps its state, and the settings every part reads. `versionaryLoop` takes the
 * same object, with the options of the other parts beside them.
 *
 * @example
 * ```ts
 * const options: LoopStorageOptions = { bundle, vendor: 'books', title: 'Books API', database: 'sqlite:./data/loop.db' };
 * ```
 */
export interface LoopStorageOptions {
  /** The API's versions and operations (`defineVersions`). */
  bundle: VersionBundle;
  /** The vendor of the API's media types: `application/vnd.<vendor>.v2+json`. */
  vendor: string;
  /** The title of the API's documents and docs pages. */
  title: string;
  /** The `info.description` of the API's documents (CommonMark); none by default. */
  description?: string;
  /**
   * The OpenAPI version of the API's documents: `3.1` by default, `3.2` to write QUERY operations
   * under `query` and deprecated security schemes as `deprecated` (3.1 uses `x-query` and `x-deprecated`).
   */
  openapiVersion?: OpenApiVersion;
  /** The `info.license` of the API's documents, `{ name, identifier? | url? }`; none by default. */
  license?: ApiDocumentInfo['license'];
  /** The `info.contact` of the API's documents, `{ name?, url?, email? }`; none by default. */
  contact?: ApiDocumentInfo['contact'];
  /** Where the versioned API lives; `/api` by default. */
  prefix?: string;
  /**
   * The loop's database: `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. It wins over a
   * `DATABASE_URL` in `env`; without either, `sqlite:./data/versionary.db`.
   */
  database?: string;
  /** A key with the admin role that is never stored (at least 16 characters); none by default. */
  adminKey?: string;
  /** Where notice emails go: `smtp://[user:pass@]host:port`, `smtps://…` or `log:` (print them), and the sender. */
  smtp?: { url: string; from: string };
  /** Verify bearer JWTs: an HS256 `secret`, a `publicKeyPem` or a `jwks`, with `issuer` and `audience`. */
  jwt?: JwtConfig;
  /** Share rate-limit windows and the change feed between instances through Redis (`redis://host:port`). */
  redisUrl?: string;
  /** Signs unsubscribe links (at least 32 characters); random per start when absent. */
  noticeSecret?: string;
  /** Signs portal sign-in cookies (at least 32 characters); random per start when absent. */
  portalSecret?: string;
  /**
   * A shorthand for the options above, by the variables of the reference service's environment:
   * `DATABASE_URL`, `VERSIONARY_ADMIN_KEY`, `VERSIONARY_SMTP_URL` and `VERSIONARY_MAIL_FROM`,
   * `VERSIONARY_NOTICE_SECRET`, `VERSIONARY_PORTAL_SECRET`, `VERSIONARY_REDIS_URL`,
   * `VERSIONARY_JWT_*`; an option given beside it wins. None by default: the loop never reads
   * `process.env` on its own; pass `env: process.env` to have it read the process's environment.
   */
  env?: Record<string, string | undefined>;
  /**
   * The settings the reference service reads from its config file, as an object: the lifecycle
   * (`versions`, `endpointDeprecations`, `fieldDeprecations`, … the same shape as the routing
   * plugin's `lifecycle` option), and `rateLimit`, `notices`, `webhooks`, `usage`, `timeouts`,
   * `bodyLimit`, `publicUrl`. Every error is reported at once, at registration.
   */
  settings?: LoopSettings;
  /** Absolute base of the links in notices and the portal; overrides `settings.publicUrl`. */
  publicUrl?: string;
  clock?: Clock;
  /**
   * What an app that has them already hands the loop instead of letting it make its own: the
   * reference service and the gateway read their environment and config file in `src/server.ts`
   * and open their database before they register the parts, and pass them here.
   */
  host?: LoopHost;
}

/** The storage part's seams (its `host` option): each, when given, is used as it is. */
export interface LoopHost extends Pick<ServiceOptions, 'ops' | 'rateLimitStore' | 'releases' | 'defaultDeprecated'> {
  /**
   * The configuration already read and checked, as `loadConfig` returns it from an environment
   * and a config file; when given, `database`, `env`, `settings` and `publicUrl` are not read.
   */
  config?: LoopConfig;
  /** Storage already open; the loop then opens no database, change feed or Redis, and closes none. */
  storage?: Storage;
  /** What the API's documents say of it, per version, instead of `description`, `license` and `contact`. */
  info?: ApiDocumentInfoSource;
}

/**
 * The loop's settings: the lifecycle config, typed as the routing plugin's, and the other
 * sections of the config file (`docs/loop.md`, the README's Configuration), checked at registration.
 *
 * @example
 * ```ts
 * const settings: LoopSettings = { versions: { v1: { deprecatedAt: '2026-06-01', sunsetAt: '2027-06-01', replacement: 'v2' } }, usage: { rawRetentionDays: 0 } };
 * ```
 */
export type LoopSettings = LifecycleConfig & {
  rateLimit?: Record<string, unknown>;
  notices?: Record<string, unknown>;
  webhooks?: Record<string, unknown>;
  usage?: Record<string, unknown>;
  timeouts?: Record<string, unknown>;
  portal?: Record<string, unknown>;
  bodyLimit?: number;
  publicUrl?: string;
};
