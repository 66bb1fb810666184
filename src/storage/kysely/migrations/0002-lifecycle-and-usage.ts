import type { Kysely, Migration } from 'kysely';
import { named, serialKey, type MigrationDialect } from './dialect.ts';

/** Migration `0002-lifecycle-and-usage`: version schedules, endpoint deprecations and the raw usage calls. */
export function lifecycleAndUsage(dialect: MigrationDialect): Migration {
  const key = serialKey(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(named(dialect, 'version_schedules'))
        .addColumn('version', 'text', (c) => c.primaryKey())
        .addColumn('deprecated_at', 'bigint', (c) => c.notNull())
        .addColumn('sunset_at', 'bigint', (c) => c.notNull())
        .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('migration_url', 'text')
        .execute();
      await db.schema
        .createTable(named(dialect, 'endpoint_deprecations'))
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('deprecated_at', 'bigint', (c) => c.notNull())
        .addColumn('sunset_at', 'bigint', (c) => c.notNull())
        .addColumn('migration_url', 'text')
        .addPrimaryKeyConstraint(named(dialect, 'endpoint_deprecations_pk'), ['version', 'method', 'path'])
        .execute();
      await db.schema
        .createTable(named(dialect, 'usage_calls'))
        .addColumn('id', dialect.serial, key)
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex(named(dialect, 'usage_calls_version'))
        .on(named(dialect, 'usage_calls'))
        .columns(['version', 'id'])
        .execute();
    },
  };
}
