import type { Migration, MigrationProvider } from 'kysely';
import { usersAndPosts } from './0001-users-and-posts.ts';
import { lifecycleAndUsage } from './0002-lifecycle-and-usage.ts';
import { apiKeys } from './0003-api-keys.ts';
import { idempotencyKeys } from './0004-idempotency-keys.ts';
import { clientsTenancyAndUsageRollups } from './0005-clients-tenancy-usage-rollups.ts';
import { noticeOutbox } from './0006-notice-outbox.ts';
import { bigintIds } from './0007-bigint-ids.ts';
import { elementUsage } from './0008-element-usage.ts';
import { operationUsage } from './0009-operation-usage.ts';
import { changeApprovals } from './0010-change-approvals.ts';
import type { MigrationDialect } from './dialect.ts';

export type { MigrationDialect } from './dialect.ts';

/**
 * The schema migrations, written once for SQLite and PostgreSQL; run at start in name order.
 * The names are stored in each database's migration table: never rename one, only add.
 */
export function createMigrationProvider(dialect: MigrationDialect): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001-users-and-posts': usersAndPosts(dialect),
    '0002-lifecycle-and-usage': lifecycleAndUsage(dialect),
    '0003-api-keys': apiKeys(),
    '0004-idempotency-keys': idempotencyKeys(),
    '0005-clients-tenancy-usage-rollups': clientsTenancyAndUsageRollups,
    '0006-notice-outbox': noticeOutbox(dialect),
    '0007-bigint-ids': bigintIds(dialect),
    '0008-element-usage': elementUsage,
    '0009-operation-usage': operationUsage,
    '0010-change-approvals': changeApprovals,
  };
  return { getMigrations: async () => migrations };
}
