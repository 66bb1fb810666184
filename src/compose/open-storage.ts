import type { DatabaseConfig } from '../service/config/load-config.ts';
import type { OpsConfig } from '../service/ops/ops-config.ts';
import type { Storage } from '../service/ports/index.ts';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite-storage.ts';
import { openPostgresStorage } from '../storage/postgres/open-postgres-storage.ts';

/** The composition root's choice of storage adapter. */
export async function openStorage(
  database: DatabaseConfig,
  options: { ops?: OpsConfig; onError?: (error: Error) => void } = {},
): Promise<Storage> {
  if (database.kind === 'sqlite')
    return openSqliteStorage({ path: database.path, ...(database.driver ? { driver: database.driver } : {}) });
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
