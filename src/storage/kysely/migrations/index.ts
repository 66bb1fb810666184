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
import { operationUsageDays } from './0011-operation-usage-days.ts';
import { clientExemptions } from './0012-client-exemptions.ts';
import { brownoutTargets } from './0013-brownout-targets.ts';
import { usageLogOffsets } from './0014-usage-log-offsets.ts';
import { exemptionRequests } from './0015-exemption-requests.ts';
import { scheduleConfigFingerprint } from './0016-schedule-config-fingerprint.ts';
import { oneExemptionPerSubject } from './0017-one-exemption-per-subject.ts';
import { clientMinimumVersion } from './0018-client-minimum-version.ts';
import { extendedAccessNames } from './0019-extended-access-names.ts';
import type { MigrationDialect } from './dialect.ts';

export type { MigrationDialect } from './dialect.ts';

/** Where the loop keeps its migration history and lock: names of its own, beside an app's Kysely tables. */
export const loopMigrationTables = {
  migrationTableName: 'versionary_migration',
  migrationLockTableName: 'versionary_migration_lock',
} as const;

/**
 * The loop's migrations, written once for SQLite and PostgreSQL; run at start in name order. The
 * names are stored in each database's migration table: never rename one, only add. `0001` (users
 * and posts) and `0007` (their 64-bit ids) belong to the reference service now
 * (`reference-migrations.ts`): an adopted history drops them (`adopt-legacy.ts`).
 */
export function createMigrationProvider(dialect: Pick<MigrationDialect, 'serial'>): MigrationProvider {
  const loop = { ...dialect, layout: 'loop' } as const;
  const migrations: Record<string, Migration> = {
    '0002-lifecycle-and-usage': lifecycleAndUsage(loop),
    '0003-api-keys': apiKeys(loop),
    '0004-idempotency-keys': idempotencyKeys(loop),
    '0005-clients-tenancy-usage-rollups': clientsTenancyAndUsageRollups(loop),
    '0006-notice-outbox': noticeOutbox(loop),
    '0008-element-usage': elementUsage(loop),
    '0009-operation-usage': operationUsage(loop),
    '0010-change-approvals': changeApprovals(loop),
    '0011-operation-usage-days': operationUsageDays(loop),
    '0012-client-exemptions': clientExemptions(loop),
    '0013-brownout-targets': brownoutTargets(loop),
    '0014-usage-log-offsets': usageLogOffsets(loop),
    '0015-exemption-requests': exemptionRequests(loop),
    '0016-schedule-config-fingerprint': scheduleConfigFingerprint(loop),
    '0017-one-exemption-per-subject': oneExemptionPerSubject(loop),
    '0018-client-minimum-version': clientMinimumVersion(loop),
    '0019-extended-access-names': extendedAccessNames(loop),
  };
  return { getMigrations: async () => migrations };
}

/**
 * The migrations as they were before the loop's tables had a prefix: bare names, users and posts
 * included, history in Kysely's default `kysely_migration`. Run only to finish migrating such a
 * database before it is adopted, and by the tests that build one.
 */
export function createLegacyMigrationProvider(dialect: Pick<MigrationDialect, 'serial'>): MigrationProvider {
  const legacy = { ...dialect, layout: 'legacy' } as const;
  const migrations: Record<string, Migration> = {
    '0001-users-and-posts': usersAndPosts(legacy),
    '0002-lifecycle-and-usage': lifecycleAndUsage(legacy),
    '0003-api-keys': apiKeys(legacy),
    '0004-idempotency-keys': idempotencyKeys(legacy),
    '0005-clients-tenancy-usage-rollups': clientsTenancyAndUsageRollups(legacy),
    '0006-notice-outbox': noticeOutbox(legacy),
    '0007-bigint-ids': bigintIds(legacy),
    '0008-element-usage': elementUsage(legacy),
    '0009-operation-usage': operationUsage(legacy),
    '0010-change-approvals': changeApprovals(legacy),
  };
  return { getMigrations: async () => migrations };
}

/** The names of the legacy migrations, as `kysely_migration` holds them. */
export const legacyMigrationNames: readonly string[] = [
  '0001-users-and-posts',
  '0002-lifecycle-and-usage',
  '0003-api-keys',
  '0004-idempotency-keys',
  '0005-clients-tenancy-usage-rollups',
  '0006-notice-outbox',
  '0007-bigint-ids',
  '0008-element-usage',
  '0009-operation-usage',
  '0010-change-approvals',
];
