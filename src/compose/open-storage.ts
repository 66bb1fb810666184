import type { DatabaseConfig } from '../service/config/load-config.ts';
import type { Storage } from '../service/ports/index.ts';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite-storage.ts';
import { openPostgresStorage } from '../storage/postgres/open-postgres-storage.ts';

/**
 * The composition root's choice of storage adapter.
 *
 * @example
 * ```ts
 * const storage = await openStorage({ kind: 'sqlite', path: ':memory:' });
 * ```
 */
export async function openStorage(database: DatabaseConfig): Promise<Storage> {
  if (database.kind === 'sqlite') return openSqliteStorage({ path: database.path });
  return openPostgresStorage({ url: database.url });
}
