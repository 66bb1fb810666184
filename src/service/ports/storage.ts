import type { PostStore } from './posts.ts';
import type { UserStore } from './users.ts';

/**
 * Everything the service needs from a database, picked by the composition root.
 *
 * @example
 * ```ts
 * const storage: Storage = await openSqliteStorage({ path: ':memory:' });
 * ```
 */
export interface Storage {
  users: UserStore;
  posts: PostStore;
  /** Release connections; pending writes finish first. */
  close(): Promise<void>;
}
