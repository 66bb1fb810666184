import type { Kysely, Migration } from 'kysely';
import { serialKey, type MigrationDialect } from './dialect.ts';

/** Migration `0001-users-and-posts`: the users and posts of the reference service. */
export function usersAndPosts(dialect: MigrationDialect): Migration {
  return {
    up: (db: Kysely<unknown>) =>
      createUsersAndPosts(db, { serial: dialect.serial, userId: 'integer', ifNotExists: false, clientId: false }),
  };
}

/**
 * The `users` and `posts` tables, written once for both histories that create them: the legacy
 * one (this migration, as it first shipped) and the reference service's own
 * (`reference-migrations.ts`), which creates them `IF NOT EXISTS`, with 64-bit ids and with the
 * `client_id` columns the legacy history added later (migration 0005).
 */
export async function createUsersAndPosts(
  db: Kysely<unknown>,
  options: {
    serial: MigrationDialect['serial'];
    userId: 'integer' | 'bigint';
    ifNotExists: boolean;
    clientId: boolean;
  },
): Promise<void> {
  const key = serialKey({ serial: options.serial, layout: 'loop' });
  const users = db.schema.createTable('users');
  await (options.ifNotExists ? users.ifNotExists() : users)
    .addColumn('id', options.serial, key)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('nickname', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .$call((t) => (options.clientId ? t.addColumn('client_id', 'text') : t))
    .execute();
  const posts = db.schema.createTable('posts');
  await (options.ifNotExists ? posts.ifNotExists() : posts)
    .addColumn('id', options.serial, key)
    .addColumn('user_id', options.userId, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .$call((t) => (options.clientId ? t.addColumn('client_id', 'text') : t))
    .execute();
  const index = db.schema.createIndex('posts_user_id');
  await (options.ifNotExists ? index.ifNotExists() : index).on('posts').columns(['user_id', 'id']).execute();
  if (options.clientId)
    await db.schema.createIndex('users_client').ifNotExists().on('users').columns(['client_id', 'id']).execute();
}
