import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import type { Storage } from '../../service/ports/index.ts';
import { createMigrationProvider } from '../kysely/migrations.ts';
import { createPostStore } from '../kysely/post-store.ts';
import type { Tables } from '../kysely/tables.ts';
import { createUserStore } from '../kysely/user-store.ts';
import { createLifecycleStore, createUsageStore } from '../kysely/lifecycle-store.ts';
import { createApiKeyStore } from '../kysely/api-key-store.ts';
import { createIdempotencyStore } from '../kysely/idempotency-store.ts';
import { openSqliteDriver, type SqliteDriverName } from './sqlite-driver.ts';
import { withStatementCache } from './statement-cache.ts';
import { guardStores } from '../guard/transient-errors.ts';

/** Options for {@link openSqliteStorage}. */
export interface SqliteStorageOptions {
  /** File path, or `:memory:` for a throwaway database. */
  path: string;
  /** The driver; libsql unless told (`sqlite-driver.ts`). */
  driver?: SqliteDriverName;
  /** Where better-sqlite3 is, if not in node_modules. */
  driverModule?: string;
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
  const database = openSqliteDriver({ driver: options.driver ?? 'libsql', path: options.path, ...(options.driverModule ? { module: options.driverModule } : {}) });
  database.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;');
  // libsql speaks better-sqlite3's API, which is what Kysely's SqliteDialect drives; statements are
  // prepared once per SQL text rather than once per query.
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  const { error } = await new Migrator({ db, provider: createMigrationProvider({ serial: 'integer' }) }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  // A busy or full database (SQLITE_BUSY past busy_timeout, SQLITE_FULL) is a 503, not a 500.
  const stores = guardStores({
    users: createUserStore(db), posts: createPostStore(db), lifecycle: createLifecycleStore(db), usage: createUsageStore(db), apiKeys: createApiKeyStore(db), idempotency: createIdempotencyStore(db),
  });
  return {
    db, ...stores,
    ping: async () => { await sql`SELECT 1`.execute(db); },
    close: () => db.destroy(),
  };
}
