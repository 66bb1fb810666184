import type { Kysely, Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * Consumers' requests for extended access past a sunset, asked from the portal and granted or
 * declined by the owner. Decided requests keep their row: with the exemptions, the audit trail.
 */
export function exemptionRequests(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(named(dialect, 'exemption_requests'))
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('subject_kind', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('method', 'text')
        .addColumn('path', 'text')
        .addColumn('element', 'text')
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('requested_until', 'bigint')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('decided_at', 'bigint')
        .addColumn('decided_by', 'text')
        .addColumn('decision_note', 'text')
        .addColumn('exemption_id', 'text')
        .execute();
      await db.schema
        .createIndex(named(dialect, 'exemption_requests_client'))
        .on(named(dialect, 'exemption_requests'))
        .column('client_id')
        .execute();
    },
  };
}
