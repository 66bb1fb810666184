import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { createFixedClock } from '../../src/core/clock/index.ts';
import type { ElementDeprecation } from '../../src/core/lifecycle/index.ts';
import type { VersionBundle } from '../../src/core/versions/index.ts';
import type { VersionedRequestHook } from '../../src/http/index.ts';
import { buildApp, type BuildAppOptions } from '../../src/compose/build-app.ts';
import { referenceProduct } from '../../src/reference/product.ts';
import type { LoopProduct } from '../../src/loop/product.ts';
import { hashKey } from '../../src/loop/access/auth/api-keys.ts';
import { loadConfig, type ServiceConfig } from '../../src/loop/settings.ts';
import type { ResourceStores, Storage } from '../../src/kernel/ports/index.ts';
import type { ResourceTables, Tables } from '../../src/storage/kysely/tables.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';
import { openTestPostgres, testDatabase } from './test-postgres.ts';

/** The admin key (`VERSIONARY_ADMIN_KEY`) every test app accepts; sent by default only with `admin: true`. */
export const testAdminKey = 'test-admin-key-0123456789';
export const adminHeaders = { authorization: `Bearer ${testAdminKey}` };

/**
 * A normal consumer's API key (roles `read` and `write`, no `admin`), stored in every test app:
 * `app.inject` sends it unless the test sends its own credentials or asks for `admin: true`.
 */
export const testConsumerKey = `vk_00000000000c0de5.${'C'.repeat(43)}`;
export const consumerHeaders = { authorization: `Bearer ${testConsumerKey}` };
/** The consumer key's id: its client identifier in usage records and rate limits. */
export const testConsumerId = 'key_00000000000c0de5';

/** The instant every test app's clock stands at, unless told otherwise. */
export const testEpoch = Date.UTC(2026, 0, 15, 12, 0, 0);

/** Options for {@link createTestApp}. */
export interface TestAppOptions {
  /** Extra environment for `loadConfig` (defaults: in-memory SQLite, silent logs). */
  env?: Record<string, string>;
  /** Config files `VERSIONARY_CONFIG` may name, by path. */
  files?: Record<string, string>;
  /** SQLite path; `:memory:` by default. */
  databasePath?: string;
  /** Build the app with this bundle instead of the published versions. */
  bundle?: VersionBundle;
  /** Serve the API's documents as OpenAPI 3.2 (the product's `api.openapiVersion`). */
  openapiVersion?: '3.2';
  /** Send requests without the default credentials. */
  anonymous?: boolean;
  /** Send the admin key by default instead of the consumer key: for tests of the management API. */
  admin?: boolean;
  /**
   * Raise the rate limit (requests per minute per client) above the default 100, for a suite
   * that makes many requests and is not about rate limits. Only without `files`.
   */
  rateLimitMax?: number;
  /** Wrap the real storage, for the one test that needs a failing method. */
  wrapStorage?: (storage: Storage) => Storage;
  /** Wrap the reference service's users and posts, for the tests that need a failing or slow method. */
  wrapResources?: (resources: ResourceStores) => ResourceStores;
  onVersionedRequest?: VersionedRequestHook[];
  now?: number;
  /** Notice channels beside email and webhooks. */
  noticeChannels?: BuildAppOptions['noticeChannels'];
  /** Collect log lines here (the level still comes from `LOG_LEVEL`, silent by default). */
  logStream?: { write(line: string): void };
  /**
   * Fields and query parameters deprecated within versions, set on the loaded lifecycle settings
   * as the config file's `fieldDeprecations` and `parameterDeprecations` would, already parsed.
   */
  elements?: ElementDeprecation[];
}

/** The loop's tables and the reference service's, as the tests read them. */
export type TestTables = Tables & ResourceTables;

/** A built app over a real SQLite store, plus what tests need to look inside. */
export interface TestApp {
  app: FastifyInstance;
  /** The storage, with the reference service's users and posts opened on it. */
  storage: Storage & ResourceStores & { db: Kysely<TestTables> };
  db: Kysely<TestTables>;
  clock: ReturnType<typeof createFixedClock>;
  config: ServiceConfig;
  close(): Promise<void>;
}

/**
 * Open a real SQLite store (in memory by default), load config the way the service does and build
 * the app with a fixed clock. Tests drive it with `app.inject()`.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // The service's own defaults, rate limits included: a test that needs more asks for it in `files`.
  if (options.rateLimitMax !== undefined && options.files)
    throw new Error('rateLimitMax: put rateLimit in the config file instead');
  const roomy: Record<string, string> | undefined =
    options.rateLimitMax === undefined
      ? undefined
      : { '/volume-test-config.json': JSON.stringify({ rateLimit: { max: options.rateLimitMax, windowSeconds: 60 } }) };
  const files = options.files ?? roomy ?? {};
  const config = loadConfig({
    env: {
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      PORT: '0',
      VERSIONARY_ADMIN_KEY: testAdminKey,
      ...(roomy ? { VERSIONARY_CONFIG: '/volume-test-config.json' } : {}),
      ...options.env,
    },
    readFile: (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error(`no test file ${path}`), { code: 'ENOENT' });
      return text;
    },
  });
  // VERSIONARY_TEST_DATABASE=postgres runs the same tests on a throwaway PostgreSQL schema.
  const opened =
    testDatabase === 'postgres'
      ? await openTestPostgres()
      : await openSqliteStorage({ path: options.databasePath ?? ':memory:' });
  const storage = {
    ...opened,
    ...(await opened.resources()),
    db: opened.db as unknown as Kysely<TestTables>,
  };
  if (!(await storage.apiKeys.find(testConsumerId))) {
    await storage.apiKeys.insert({
      id: testConsumerId,
      name: 'test consumer',
      roles: ['read', 'write'],
      contact: null,
      hash: hashKey(testConsumerKey),
      createdAt: options.now ?? testEpoch,
      revokedAt: null,
    });
  }
  if (options.elements) config.settings.lifecycle.elementDeprecations = options.elements;
  const clock = createFixedClock(options.now ?? testEpoch);
  const { wrapResources } = options;
  const withResources = wrapResources
    ? { ...opened, resources: async () => wrapResources(await opened.resources()) }
    : opened;
  const served = options.wrapStorage ? options.wrapStorage(withResources) : withResources;
  const app = await buildApp({
    product: withOpenApiVersion(referenceProduct(options.bundle ? { bundle: options.bundle } : {}), options),
    config,
    storage: served,
    clock,
    ...(options.onVersionedRequest ? { onVersionedRequest: options.onVersionedRequest } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.noticeChannels ? { noticeChannels: options.noticeChannels } : {}),
  });
  await app.ready();
  if (!options.anonymous)
    sendDefaultCredentials(app, options.admin ? adminHeaders.authorization : consumerHeaders.authorization);
  let closed = false;
  return {
    app,
    storage,
    db: storage.db,
    clock,
    config,
    close: async () => {
      if (closed) return;
      closed = true;
      await app.close();
      await storage.close();
    },
  };
}

/**
 * Make `app.inject` send `authorization` unless the request carries its own `authorization` or
 * `x-api-key` header (an empty string there means "send no credentials at all").
 */
function sendDefaultCredentials(app: FastifyInstance, authorization: string): void {
  const inject = app.inject.bind(app) as (opts: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const wrapped = (opts: InjectOptions | string) => {
    const options: InjectOptions = typeof opts === 'string' ? { url: opts } : { ...opts };
    const headers = { ...(options.headers ?? {}) } as Record<string, string>;
    const own = 'authorization' in headers || 'x-api-key' in headers;
    if (!own) headers.authorization = authorization;
    for (const name of ['authorization', 'x-api-key']) if (headers[name] === '') delete headers[name];
    return inject({ ...options, headers });
  };
  (app as unknown as { inject: typeof wrapped }).inject = wrapped;
}

/** A parsed JSON body, or undefined when there is none. */
export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return (res.body === '' ? undefined : JSON.parse(res.body)) as T;
}

/** Create a user through the API and return its body. */
export async function createUser(
  app: FastifyInstance,
  options: { version?: string; body: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  const res = await app.inject({ method: 'POST', url: `/api/${options.version ?? 'v2'}/users`, payload: options.body });
  if (res.statusCode !== 201) throw new Error(`createUser failed: ${res.statusCode} ${res.body}`);
  return json(res);
}

/** Insert many users directly through the storage port (faster than HTTP for bulk setup). */
export async function seedUsers(storage: Pick<ResourceStores, 'users'>, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) {
    const user = await storage.users.create({
      values: { name: `user ${i}`, email: null, nickname: null, status: 'active' },
      at: new Date(testEpoch).toISOString(),
    });
    ids.push(user.id);
  }
  return ids;
}

/** Every row of users and posts, ordered: compare before and after to prove nothing changed. */
export async function snapshotTables(db: Kysely<TestTables>): Promise<string> {
  const users = await db.selectFrom('users').selectAll().orderBy('id').execute();
  const posts = await db.selectFrom('posts').selectAll().orderBy('id').execute();
  // AUTOINCREMENT counters too: a rejected create must not even consume an id.
  const seq =
    testDatabase === 'postgres'
      ? await sql`SELECT sequencename AS name, last_value AS seq FROM pg_sequences WHERE schemaname = current_schema() AND sequencename IN ('posts_id_seq', 'users_id_seq') ORDER BY sequencename`.execute(
          db,
        )
      : await sql`SELECT name, seq FROM sqlite_sequence WHERE name IN ('users', 'posts') ORDER BY name`.execute(db);
  return JSON.stringify({ users, posts, seq: seq.rows });
}

export type { InjectOptions };

function withOpenApiVersion(product: LoopProduct, options: TestAppOptions): LoopProduct {
  return options.openapiVersion
    ? { ...product, api: { ...product.api, openapiVersion: options.openapiVersion } }
    : product;
}
