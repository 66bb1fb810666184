import type { Kysely, Selectable } from 'kysely';
import type { PostRecord, PostStore } from '../../kernel/ports/index.ts';
import { readPage } from './mapping.ts';
import type { PostsTable, ResourceTables } from './tables.ts';

/**
 * The posts port over Kysely. A post is created only if its user exists, in one statement, so a
 * concurrent delete of the user cannot leave an orphan. The casts tell PostgreSQL the parameter types.
 */
export function createPostStore(db: Kysely<ResourceTables>): PostStore {
  return {
    list: ({ userId, limit, afterId }) =>
      readPage(
        db.selectFrom('posts').selectAll().where('user_id', '=', userId).where('id', '>', afterId),
        limit,
        toPost,
      ),
    async get({ userId, postId }) {
      const row = await db
        .selectFrom('posts')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', postId)
        .executeTakeFirst();
      return row && toPost(row);
    },
    async create({ userId, title, body, at }) {
      const row = await db
        .insertInto('posts')
        .columns(['user_id', 'title', 'body', 'created_at', 'client_id'])
        .expression((eb) =>
          eb
            .selectFrom('users')
            .select([
              eb.cast(eb.val(userId), 'bigint').as('user_id'),
              eb.cast(eb.val(title), 'text').as('title'),
              eb.cast(eb.val(body), 'text').as('body'),
              eb.cast(eb.val(at), 'text').as('created_at'),
              'users.client_id',
            ])
            .where('users.id', '=', userId),
        )
        .returningAll()
        .executeTakeFirst();
      return row && toPost(row);
    },
    async delete({ userId, postId }) {
      const result = await db
        .deleteFrom('posts')
        .where('user_id', '=', userId)
        .where('id', '=', postId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

function toPost(row: Selectable<PostsTable>): PostRecord {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    title: row.title,
    body: row.body,
    createdAt: row.created_at,
    clientId: row.client_id ?? null,
  };
}
