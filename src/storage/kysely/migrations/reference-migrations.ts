import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { createUsersAndPosts } from './0001-users-and-posts.ts';
import type { MigrationDialect } from './dialect.ts';

/** Where the reference service keeps the history of its own tables, apart from the loop's. */
export const referenceMigrationTables = {
  migrationTableName: 'reference_migration',
  migrationLockTableName: 'reference_migration_lock',
} as const;

/**
 * The reference service's own tables, `users` and `posts`: its app tables, as an app's own
 * migrations would create them, migrated only by the reference service's composition (never by
 * the loop or the gateway). `IF NOT EXISTS`: a database migrated before the split holds them
 * already, in this shape (with their data), created by the legacy history.
 */
export function createReferenceMigrationProvider(dialect: Pick<MigrationDialect, 'serial'>): MigrationProvider {
  const migrations: Record<string, Migration> = { '0001-users-and-posts': usersAndPosts(dialect) };
  return { getMigrations: async () => migrations };
}

function usersAndPosts(dialect: Pick<MigrationDialect, 'serial'>): Migration {
  // 64-bit ids: the API promises ids up to 15 digits. SQLite's INTEGER already is.
  const sqlite = dialect.serial === 'integer';
  return {
    up: (db: Kysely<unknown>) =>
      createUsersAndPosts(db, {
        serial: sqlite ? 'integer' : 'bigserial',
        userId: sqlite ? 'integer' : 'bigint',
        ifNotExists: true,
        clientId: true,
      }),
  };
}
