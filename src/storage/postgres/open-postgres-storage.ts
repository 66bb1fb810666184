import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Storage } from '../../service/ports/index.ts';
import { createApiKeyStore } from '../kysely/api-key-store.ts';
import { createIdempotencyStore } from '../kysely/idempotency-store.ts';
import { createNoticeStore } from '../kysely/notice-store.ts';
import { createLifecycleStore } from '../kysely/lifecycle-store.ts';
import { createUsageStore } from '../kysely/usage-store.ts';
import { createClientStore } from '../kysely/client-store.ts';
import { createMigrationProvider } from '../kysely/migrations.ts';
import { createPostStore } from '../kysely/post-store.ts';
import type { Tables } from '../kysely/tables.ts';
import { createUserStore } from '../kysely/user-store.ts';

/** Options for {@link openPostgresStorage}. */
export interface PostgresStorageOptions {
  /** `postgres://user@host:port/database`. */
  url: string;
  /** Schema to use (created if missing); `public` by default. Tests use one per run. */
  schema?: string;
  /** Pool size; 10 by default. */
  max?: number;
}

/**
 * Connect to PostgreSQL, migrate, and return the same storage ports as SQLite: the SQL is the
 * same Kysely code, so one contract suite checks both.
 *
 * @example
 * ```ts
 * const storage = await openPostgresStorage({ url: 'postgres://postgres@127.0.0.1:5432/test' });
 * ```
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<Storage & { db: Kysely<Tables> }> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  const pool = new pg.Pool({ connectionString: options.url, max: options.max ?? 10, options: `-c search_path=${schema}` });
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
    // Name the schema: without it the migrator can mistake another schema's bookkeeping tables for ours.
    const migrator = new Migrator({ db, provider: createMigrationProvider({ serial: 'serial' }), migrationTableSchema: schema });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    db, users: createUserStore(db), posts: createPostStore(db), lifecycle: createLifecycleStore(db), usage: createUsageStore(db),
    apiKeys: createApiKeyStore(db), idempotency: createIdempotencyStore(db), clients: createClientStore(db),
    notices: createNoticeStore(db, { skipLocked: true }),
    close: () => db.destroy(),
  };
}
