import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'libsql';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import type { Storage } from '../../service/ports/index.ts';
import { createMigrationProvider } from '../kysely/migrations.ts';
import { createPostStore } from '../kysely/post-store.ts';
import type { Tables } from '../kysely/tables.ts';
import { createUserStore } from '../kysely/user-store.ts';
import { createLifecycleStore } from '../kysely/lifecycle-store.ts';
import { createUsageStore } from '../kysely/usage-store.ts';
import { createClientStore } from '../kysely/client-store.ts';
import { createApiKeyStore } from '../kysely/api-key-store.ts';
import { createIdempotencyStore } from '../kysely/idempotency-store.ts';
import { createNoticeStore } from '../kysely/notice-store.ts';
import { withStatementCache } from './statement-cache.ts';

/** Options for {@link openSqliteStorage}. */
export interface SqliteStorageOptions {
  /** File path, or `:memory:` for a throwaway database. */
  path: string;
}

/**
 * Open (creating if needed) an embedded SQLite database, migrate it, and return the storage ports.
 *
 * @example
 * ```ts
 * const storage = await openSqliteStorage({ path: './data/versionary.db' });
 * ```
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage & { db: Kysely<Tables> }> {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const database = new Database(options.path);
  database.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;');
  // libsql speaks better-sqlite3's API, which is what Kysely's SqliteDialect drives; statements are
  // prepared once per SQL text rather than once per query.
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(database as never) }) });
  const { error } = await new Migrator({ db, provider: createMigrationProvider({ serial: 'integer' }) }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  return {
    db, users: createUserStore(db), posts: createPostStore(db), lifecycle: createLifecycleStore(db), usage: createUsageStore(db), apiKeys: createApiKeyStore(db), idempotency: createIdempotencyStore(db), clients: createClientStore(db),
    notices: createNoticeStore(db, { skipLocked: false }),
    close: () => db.destroy(),
  };
}
