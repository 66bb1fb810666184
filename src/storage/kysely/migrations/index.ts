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

/** Every migration, by the name each database's migration table stores: never rename one, only add. */
const migrations = {
  '0001-users-and-posts': usersAndPosts,
  '0002-lifecycle-and-usage': lifecycleAndUsage,
  '0003-api-keys': apiKeys,
  '0004-idempotency-keys': idempotencyKeys,
  '0005-clients-tenancy-usage-rollups': clientsTenancyAndUsageRollups,
  '0006-notice-outbox': noticeOutbox,
  '0007-bigint-ids': bigintIds,
  '0008-element-usage': elementUsage,
  '0009-operation-usage': operationUsage,
  '0010-change-approvals': changeApprovals,
  '0011-operation-usage-days': operationUsageDays,
  '0012-client-exemptions': clientExemptions,
  '0013-brownout-targets': brownoutTargets,
  '0014-usage-log-offsets': usageLogOffsets,
  '0015-exemption-requests': exemptionRequests,
  '0016-schedule-config-fingerprint': scheduleConfigFingerprint,
  '0017-one-exemption-per-subject': oneExemptionPerSubject,
  '0018-client-minimum-version': clientMinimumVersion,
  '0019-extended-access-names': extendedAccessNames,
} satisfies Record<string, (dialect: MigrationDialect) => Migration>;

/** Migrations of the legacy history that belong to the reference service now: an adopted history drops them. */
export const referenceOnly = ['0001-users-and-posts', '0007-bigint-ids'];

/** The names of the legacy migrations, as `kysely_migration` holds them. */
export const legacyMigrationNames: readonly string[] = Object.keys(migrations).filter((n) => n < '0011');

function providerOf(dialect: MigrationDialect, names: (name: string) => boolean): MigrationProvider {
  const chosen = Object.fromEntries(
    Object.entries(migrations)
      .filter(([name]) => names(name))
      .map(([name, migration]) => [name, migration(dialect)]),
  );
  return { getMigrations: async () => chosen };
}

/**
 * The loop's migrations, written once for SQLite and PostgreSQL; run at start in name order.
 * `0001` (users and posts) and `0007` (their 64-bit ids) belong to the reference service now
 * (`reference-migrations.ts`): an adopted history drops them (`adopt-legacy.ts`).
 */
export function createMigrationProvider(dialect: Pick<MigrationDialect, 'serial'>): MigrationProvider {
  return providerOf({ ...dialect, layout: 'loop' }, (name) => !referenceOnly.includes(name));
}

/**
 * The migrations as they were before the loop's tables had a prefix: bare names, users and posts
 * included, history in Kysely's default `kysely_migration`. Run only to finish migrating such a
 * database before it is adopted, and by the tests that build one.
 */
export function createLegacyMigrationProvider(dialect: Pick<MigrationDialect, 'serial'>): MigrationProvider {
  return providerOf({ ...dialect, layout: 'legacy' }, (name) => legacyMigrationNames.includes(name));
}
