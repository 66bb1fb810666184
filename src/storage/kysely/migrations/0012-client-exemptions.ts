import type { Kysely, Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * Per-client exemptions past a sunset, and the two lifecycle dates beside a deprecation: the cap
 * on extended access (`extended_access_until`) and the day a subject closes to new clients
 * (`closed_to_new_clients_at`). A revoked exemption keeps its row: the table is the audit trail.
 */
export function clientExemptions(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(named(dialect, 'client_exemptions'))
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('subject_kind', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('method', 'text')
        .addColumn('path', 'text')
        .addColumn('element', 'text')
        .addColumn('until_at', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('granted_by', 'text', (c) => c.notNull())
        .addColumn('granted_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('revoked_by', 'text')
        .execute();
      await db.schema
        .createIndex(named(dialect, 'client_exemptions_client'))
        .on(named(dialect, 'client_exemptions'))
        .column('client_id')
        .execute();
      for (const table of ['version_schedules', 'endpoint_deprecations']) {
        await db.schema.alterTable(named(dialect, table)).addColumn('extended_access_until', 'bigint').execute();
        await db.schema.alterTable(named(dialect, table)).addColumn('closed_to_new_clients_at', 'bigint').execute();
      }
    },
  };
}
