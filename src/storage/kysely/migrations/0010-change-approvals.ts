import type { Kysely, Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * Approvals of breaking changes by fingerprint, for `versionary diff --server`. A revoked approval
 * keeps its row (who revoked it and when): the table is the audit trail.
 */
export function changeApprovals(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(named(dialect, 'change_approvals'))
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('approved_by', 'text', (c) => c.notNull())
        .addColumn('approved_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('revoked_by', 'text')
        .execute();
      await db.schema
        .createIndex(named(dialect, 'change_approvals_fingerprint'))
        .on(named(dialect, 'change_approvals'))
        .column('fingerprint')
        .execute();
    },
  };
}
