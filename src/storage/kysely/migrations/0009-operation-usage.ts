import type { Kysely, Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * Calls to every version, deprecated or not, per (UTC hour, version, endpoint, client): what a
 * breaking change would hurt. Hourly, not per minute: the question is who calls an operation at
 * all, and an hour keeps the table small at any volume. The primary key leads with the hour, so
 * windows and retention read and delete by range.
 */
export function operationUsage(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(named(dialect, 'usage_operation_hours'))
        .addColumn('hour', 'bigint', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('calls', 'bigint', (c) => c.notNull())
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint(named(dialect, 'usage_operation_hours_pk'), [
          'hour',
          'version',
          'endpoint',
          'client_id',
        ])
        .execute();
    },
  };
}
