import type { Kysely, Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * Usage of deprecated fields and query parameters: all-time totals per (element, version,
 * endpoint, client), a rollup of its own so that element calls never count in the version and
 * endpoint rollups (a call to an active version that sends a deprecated field is no call to a
 * deprecated version). Same value columns as the other rollups, so the same upsert serves it.
 */
export function elementUsage(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(named(dialect, 'usage_elements'))
        .addColumn('element', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('calls', 'bigint', (c) => c.notNull())
        .addColumn('first_seen', 'bigint', (c) => c.notNull())
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addPrimaryKeyConstraint(named(dialect, 'usage_elements_pk'), ['element', 'version', 'endpoint', 'client_id'])
        .execute();
      // One client's element uses (its dashboard, its notices) without reading every client's rows.
      await db.schema
        .createIndex(named(dialect, 'usage_elements_client'))
        .on(named(dialect, 'usage_elements'))
        .column('client_id')
        .execute();
    },
  };
}
