import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { createFixedClock } from '../../src/core/clock/index.ts';
import type { VersionBundle } from '../../src/core/versions/index.ts';
import type { VersionedRequestHook } from '../../src/http/index.ts';
import { buildApp } from '../../src/service/app/build-app.ts';
import { loadConfig, type ServiceConfig } from '../../src/service/config/load-config.ts';
import type { Storage } from '../../src/service/ports/index.ts';
import type { Tables } from '../../src/storage/kysely/tables.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';
import { openTestPostgres, testDatabase } from './test-postgres.ts';

/** The admin key every test app accepts; `app.inject` sends it unless a test sends its own credentials. */
export const testAdminKey = 'test-admin-key-0123456789';
export const adminHeaders = { authorization: `Bearer ${testAdminKey}` };

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
  /** Send requests without the default admin credentials. */
  anonymous?: boolean;
  /** Wrap the real storage, for the one test that needs a failing method. */
  wrapStorage?: (storage: Storage) => Storage;
  onVersionedRequest?: VersionedRequestHook[];
  now?: number;
}

/** A built app over a real SQLite store, plus what tests need to look inside. */
export interface TestApp {
  app: FastifyInstance;
  storage: Storage & { db: Kysely<Tables> };
  db: Kysely<Tables>;
  clock: ReturnType<typeof createFixedClock>;
  config: ServiceConfig;
  close(): Promise<void>;
}

/**
 * Open a real SQLite store (in memory by default), load config the way the service does and build
 * the app with a fixed clock. Tests drive it with `app.inject()`.
 *
 * @example
 * ```ts
 * const { app, close } = await createTestApp();
 * const res = await app.inject({ method: 'GET', url: '/api/v1/users' });
 * await close();
 * ```
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // Tests that bring no config get a limit high enough that volume tests never meet it.
  const files = options.files ?? { '/default-test-config.json': JSON.stringify({ rateLimit: { max: 1_000_000, windowSeconds: 60 } }) };
  const defaults = options.files ? {} : { VERSIONARY_CONFIG: '/default-test-config.json' };
  const config = loadConfig({
    env: { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', PORT: '0', VERSIONARY_ADMIN_KEY: testAdminKey, ...defaults, ...options.env },
    readFile: (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error(`no test file ${path}`), { code: 'ENOENT' });
      return text;
    },
  });
  // VERSIONARY_TEST_DATABASE=postgres runs the same tests on a throwaway PostgreSQL schema.
  const storage = testDatabase === 'postgres' ? await openTestPostgres() : await openSqliteStorage({ path: options.databasePath ?? ':memory:' });
  const clock = createFixedClock(options.now ?? testEpoch);
  const served = options.wrapStorage ? options.wrapStorage(storage) : storage;
  const app = await buildApp({
    config, storage: served, clock,
    ...(options.bundle ? { bundle: options.bundle } : {}),
    ...(options.onVersionedRequest ? { onVersionedRequest: options.onVersionedRequest } : {}),
  });
  await app.ready();
  if (!options.anonymous) sendDefaultCredentials(app);
  let closed = false;
  return {
    app, storage, db: storage.db, clock, config,
    close: async () => {
      if (closed) return;
      closed = true;
      await app.close();
      await storage.close();
    },
  };
}

/**
 * Make `app.inject` send the admin key unless the request carries its own `authorization` or
 * `x-api-key` header (an empty string there means "send no credentials at all").
 */
function sendDefaultCredentials(app: FastifyInstance): void {
  const inject = app.inject.bind(app) as (opts: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const wrapped = (opts: InjectOptions | string) => {
    const options: InjectOptions = typeof opts === 'string' ? { url: opts } : { ...opts };
    const headers = { ...(options.headers ?? {}) } as Record<string, string>;
    const own = 'authorization' in headers || 'x-api-key' in headers;
    if (!own) headers.authorization = adminHeaders.authorization;
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
export async function createUser(app: FastifyInstance, options: { version?: string; body: Record<string, unknown> }): Promise<Record<string, unknown>> {
  const res = await app.inject({ method: 'POST', url: `/api/${options.version ?? 'v2'}/users`, payload: options.body });
  if (res.statusCode !== 201) throw new Error(`createUser failed: ${res.statusCode} ${res.body}`);
  return json(res);
}

/** Insert many users directly through the storage port (faster than HTTP for bulk setup). */
export async function seedUsers(storage: Storage, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) {
    const user = await storage.users.create({ values: { name: `user ${i}`, email: null, nickname: null, status: 'active' }, at: new Date(testEpoch).toISOString() });
    ids.push(user.id);
  }
  return ids;
}

/** Every row of users and posts, ordered: compare before and after to prove nothing changed. */
export async function snapshotTables(db: Kysely<Tables>): Promise<string> {
  const users = await db.selectFrom('users').selectAll().orderBy('id').execute();
  const posts = await db.selectFrom('posts').selectAll().orderBy('id').execute();
  // AUTOINCREMENT counters too: a rejected create must not even consume an id.
  const seq = testDatabase === 'postgres'
    ? await sql`SELECT sequencename AS name, last_value AS seq FROM pg_sequences WHERE schemaname = current_schema() AND sequencename IN ('posts_id_seq', 'users_id_seq') ORDER BY sequencename`.execute(db)
    : await sql`SELECT name, seq FROM sqlite_sequence WHERE name IN ('users', 'posts') ORDER BY name`.execute(db);
  return JSON.stringify({ users, posts, seq: seq.rows });
}

export type { InjectOptions };
