import type { DatabaseConfig } from '../../kernel/config/load-config.ts';
import type { OpsConfig } from '../../kernel/ops/ops-config.ts';
import type { Storage } from '../../kernel/ports/index.ts';

/**
 * The composition root's choice of storage adapter. Each adapter is imported when chosen, so
 * that a SQLite app never loads `pg` (an optional peer it need not install), nor PostgreSQL `libsql`.
 */
export async function openStorage(
  database: DatabaseConfig,
  options: { ops?: OpsConfig; onError?: (error: Error) => void } = {},
): Promise<Storage> {
  if (database.kind === 'sqlite') {
    const { openSqliteStorage } = await import('../../storage/sqlite/open-sqlite-storage.ts');
    return openSqliteStorage({ path: database.path, ...(database.driver ? { driver: database.driver } : {}) });
  }
  const { openPostgresStorage } = await import('../../storage/postgres/open-postgres-storage.ts');
  const { ops } = options;
  return openPostgresStorage({
    url: database.url,
    ...(ops
      ? {
          schema: ops.dbSchema,
          max: ops.dbPoolMax,
          connectTimeoutMs: ops.dbConnectTimeoutMs,
          statementTimeoutMs: ops.dbStatementTimeoutMs,
        }
      : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
