import type { Kysely, Migration } from 'kysely';
import { serialKey, type MigrationDialect } from './dialect.ts';

/** Migration `0001-users-and-posts`: the users and posts of the reference service. */
export function usersAndPosts(dialect: MigrationDialect): Migration {
  const key = serialKey(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', dialect.serial, key)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('nickname', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('posts')
        .addColumn('id', dialect.serial, key)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('posts_user_id').on('posts').columns(['user_id', 'id']).execute();
    },
  };
}
