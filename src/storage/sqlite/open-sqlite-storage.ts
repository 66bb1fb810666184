import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import type { Storage } from '../../kernel/ports/index.ts';
import { openLoopStorage } from '../kysely/loop-stores.ts';
import type { Tables } from '../kysely/tables.ts';
import { defaultSqliteDriver, openSqliteDriver, type SqliteDriverName } from './sqlite-driver.ts';
import { withStatementCache } from './statement-cache.ts';

export interface SqliteStorageOptions {
  /** File path, or `:memory:` for a throwaway database. */
  path: string;
  /** The driver; {@link defaultSqliteDriver} unless told: node:sqlite where it loads without a warning (24.15+), else libsql. */
  driver?: SqliteDriverName;
  /** Where better-sqlite3 is, if not in node_modules. */
  driverModule?: string;
}

/**
 * Open (creating if needed) an embedded SQLite database, migrate the loop's tables, and return the
 * storage ports.
 * The file and its `-wal` and `-shm` files are readable by the owner only (0600): they hold key
 * hashes, contact emails and stored responses. Missing directories are created 0700.
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage & { db: Kysely<Tables> }> {
  const database = ownerOnly(options.path, () => {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
    const opened = openSqliteDriver({
      driver: options.driver ?? defaultSqliteDriver(),
      path: options.path,
      ...(options.driverModule ? { module: options.driverModule } : {}),
    });
    opened.exec(
      'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;',
    );
    return opened;
  });
  // libsql speaks better-sqlite3's API, which is what Kysely's SqliteDialect drives; statements are
  // prepared once per SQL text rather than once per query.
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  // A busy or full database (SQLITE_BUSY past busy_timeout, SQLITE_FULL) is a 503, not a 500.
  return openLoopStorage(db, { dialect: { serial: 'integer' } });
}

/**
 * Run `open` with a umask that leaves new files and directories to their owner alone; it is
 * synchronous, so nothing else in the process creates a file meanwhile. Files of an existing
 * database (created by an older release, or copied in) are tightened to 0600 as well.
 */
function ownerOnly<T>(path: string, open: () => T): T {
  if (path === ':memory:') return open();
  const previous = process.umask(0o077);
  try {
    return open();
  } finally {
    process.umask(previous);
    for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`])
      if (existsSync(file)) chmodSync(file, 0o600);
  }
}
