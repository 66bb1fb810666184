import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { serialKey, type MigrationDialect } from './dialect.ts';

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
  const serial = sqlite ? 'integer' : 'bigserial';
  const key = serialKey({ serial, layout: 'loop' });
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .ifNotExists()
        .addColumn('id', serial, key)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('nickname', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text')
        .execute();
      await db.schema
        .createTable('posts')
        .ifNotExists()
        .addColumn('id', serial, key)
        .addColumn('user_id', sqlite ? 'integer' : 'bigint', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text')
        .execute();
      await db.schema.createIndex('posts_user_id').ifNotExists().on('posts').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('users_client').ifNotExists().on('users').columns(['client_id', 'id']).execute();
    },
  };
}
