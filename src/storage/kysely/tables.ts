import type { Generated } from 'kysely';

/** The `users` table. */
export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string | null;
  nickname: string | null;
  status: string;
  revision: number;
  created_at: string;
  updated_at: string;
}

/** The `posts` table. */
export interface PostsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  body: string;
  created_at: string;
}

/** Every table, as Kysely sees them. Later features add theirs here. */
export interface Tables {
  users: UsersTable;
  posts: PostsTable;
}
