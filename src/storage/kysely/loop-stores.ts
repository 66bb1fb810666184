import { Migrator, sql, type Kysely, type MigratorProps } from 'kysely';
import type { ResourceStores, Storage } from '../../kernel/ports/index.ts';
import { guardStores } from '../guard/transient-errors.ts';
import { createApiKeyStore } from './api-key-store.ts';
import { createApprovalStore, createExtendedAccessRequestStore, createExtendedAccessStore } from './audit-stores.ts';
import { createClientStore } from './client-store.ts';
import { createIdempotencyStore } from './idempotency-store.ts';
import { createLifecycleStore } from './lifecycle-store.ts';
import { adoptLegacyLayout, type AdoptDialect } from './migrations/adopt-legacy.ts';
import { createMigrationProvider, loopMigrationTables } from './migrations/index.ts';
import { createReferenceMigrationProvider, referenceMigrationTables } from './migrations/reference-migrations.ts';
import { createNoticeStore } from './notice-store.ts';
import { createPostStore } from './post-store.ts';
import type { ResourceTables, Tables } from './tables.ts';
import { createUsageLogStore } from './usage-log-store.ts';
import { operationPageRows } from './usage-operations.ts';
import { createUsageStore } from './usage-store.ts';
import { createUserStore } from './user-store.ts';

/**
 * The storage ports over a database both adapters open alike: the loop's tables migrated (the
 * database closed again if that fails), the ten stores, the reference service's resources
 * migrated on first use, a ping and a close. What differs, the dialect and how each migrates
 * (PostgreSQL in a schema, under an advisory lock), is passed in.
 */
export async function openLoopStorage(
  db: Kysely<Tables>,
  options: {
    dialect: AdoptDialect;
    underLock?: <T>(migrate: () => Promise<T>) => Promise<T>;
  },
): Promise<Storage & { db: Kysely<Tables> }> {
  const { dialect } = options;
  const underLock = options.underLock ?? ((migrate) => migrate());
  try {
    await underLock(() => migrateLoop(db, dialect));
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const sqlite = dialect.serial === 'integer';
  return {
    db,
    // Each store guarded, so that a busy, full or unreachable database is a 503, not a 500. The two
    // databases differ in what they can do: PostgreSQL skips rows locked by another instance's
    // outbox worker, and reads longer pages.
    ...guardStores({
      lifecycle: createLifecycleStore(db),
      usage: createUsageStore(db, { operationPageRows: operationPageRows[sqlite ? 'sqlite' : 'postgres'] }),
      usageLog: createUsageLogStore(db),
      apiKeys: createApiKeyStore(db),
      approvals: createApprovalStore(db),
      extendedAccess: createExtendedAccessStore(db),
      extendedAccessRequests: createExtendedAccessRequestStore(db),
      idempotency: createIdempotencyStore(db),
      clients: createClientStore(db),
      notices: createNoticeStore(db, { skipLocked: !sqlite }),
    }),
    resources: once(() => underLock(() => migrateResources(db, dialect))),
    ping: async () => {
      await sql`SELECT 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/**
 * Migrate the loop's tables: adopt a database of the legacy layout first, then run the loop's
 * migrations with their own history table (`versionary_migration`), never Kysely's default one,
 * which an app's own migrations may use.
 */
async function migrateLoop(db: Kysely<Tables>, dialect: AdoptDialect): Promise<void> {
  await adoptLegacyLayout(db as unknown as Kysely<unknown>, dialect);
  await migrate(db, dialect, { provider: createMigrationProvider(dialect), ...loopMigrationTables });
}

/** Migrate the reference service's users and posts (history in `reference_migration`), and return their stores. */
async function migrateResources(db: Kysely<Tables>, dialect: AdoptDialect): Promise<ResourceStores> {
  await migrate(db, dialect, { provider: createReferenceMigrationProvider(dialect), ...referenceMigrationTables });
  const resources = db as unknown as Kysely<ResourceTables>;
  // A busy or unreachable database is a 503, as for the loop's stores.
  return guardStores({ users: createUserStore(resources), posts: createPostStore(resources) });
}

/** Open something once, on first use; a failed attempt is tried again on the next call. */
function once<T>(open: () => Promise<T>): () => Promise<T> {
  let opened: Promise<T> | undefined;
  return () =>
    (opened ??= open().catch((error: unknown) => {
      opened = undefined;
      throw error;
    }));
}

async function migrate(db: Kysely<Tables>, dialect: AdoptDialect, options: Omit<MigratorProps, 'db'>): Promise<void> {
  // Name the schema on PostgreSQL: without it the migrator can mistake another schema's bookkeeping tables for ours.
  const at = dialect.schema ? { migrationTableSchema: dialect.schema } : {};
  const { error } = await new Migrator({ db, ...options, ...at }).migrateToLatest();
  if (error) throw error;
}
