import { Migrator, type Kysely } from 'kysely';
import type { ResourceStores } from '../../kernel/ports/index.ts';
import { guardStores } from '../guard/transient-errors.ts';
import { adoptLegacyLayout, type AdoptDialect } from './migrations/adopt-legacy.ts';
import { createMigrationProvider, loopMigrationTables } from './migrations/index.ts';
import { createReferenceMigrationProvider, referenceMigrationTables } from './migrations/reference-migrations.ts';
import { createPostStore } from './post-store.ts';
import type { ResourceTables, Tables } from './tables.ts';
import { createUserStore } from './user-store.ts';

/**
 * Migrate the loop's tables: adopt a database of the legacy layout first, then run the loop's
 * migrations with their own history table (`versionary_migration`), never Kysely's default one,
 * which an app's own migrations may use.
 */
export async function migrateLoop(db: Kysely<Tables>, dialect: AdoptDialect): Promise<void> {
  await adoptLegacyLayout(db as unknown as Kysely<unknown>, dialect);
  await run(new Migrator({ db, provider: createMigrationProvider(dialect), ...loopMigrationTables, ...at(dialect) }));
}

/** Migrate the reference service's users and posts (history in `reference_migration`), and return their stores. */
export async function migrateResources(db: Kysely<Tables>, dialect: AdoptDialect): Promise<ResourceStores> {
  await run(
    new Migrator({
      db,
      provider: createReferenceMigrationProvider(dialect),
      ...referenceMigrationTables,
      ...at(dialect),
    }),
  );
  const resources = db as unknown as Kysely<ResourceTables>;
  // A busy or unreachable database is a 503, as for the loop's stores.
  return guardStores({ users: createUserStore(resources), posts: createPostStore(resources) });
}

/** Open something once, on first use; a failed attempt is tried again on the next call. */
export function once<T>(open: () => Promise<T>): () => Promise<T> {
  let opened: Promise<T> | undefined;
  return () =>
    (opened ??= open().catch((error: unknown) => {
      opened = undefined;
      throw error;
    }));
}

// Name the schema on PostgreSQL: without it the migrator can mistake another schema's bookkeeping tables for ours.
const at = (dialect: AdoptDialect) => (dialect.schema ? { migrationTableSchema: dialect.schema } : {});

async function run(migrator: Migrator): Promise<void> {
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
