import { sql, type Kysely, type Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * The hourly operation counts summed per UTC day (`usage_operation_days`), kept beside the hours
 * so that a long window reads one row per day instead of 24: reads take whole days from here and
 * the ragged hours at either end from the hours. Filled from the hours a database already holds,
 * in the same transaction as the table's creation, so no read ever sees it half filled.
 */
export function operationUsageDays(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const days = named(dialect, 'usage_operation_days');
      await db.schema
        .createTable(days)
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('calls', 'bigint', (c) => c.notNull())
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint(named(dialect, 'usage_operation_days_pk'), ['day', 'version', 'endpoint', 'client_id'])
        .execute();
      // Integer division on both databases: the hour is a bigint (an INTEGER on SQLite).
      await sql`INSERT INTO ${sql.table(days)} (day, version, endpoint, client_id, calls, last_seen)
        SELECT (hour / 86400000) * 86400000, version, endpoint, client_id, SUM(calls), MAX(last_seen)
        FROM ${sql.table(named(dialect, 'usage_operation_hours'))}
        GROUP BY (hour / 86400000) * 86400000, version, endpoint, client_id`.execute(db);
    },
  };
}
