import type { PostStore } from './posts.ts';
import type { UserStore } from './users.ts';
import type { LifecycleStore } from './lifecycle.ts';
import type { UsageStore } from './usage.ts';
import type { ClientStore } from './clients.ts';
import type { ApiKeyStore } from './api-keys.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { NoticeStore } from './notices.ts';

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
  lifecycle: LifecycleStore;
  usage: UsageStore;
  apiKeys: ApiKeyStore;
  idempotency: IdempotencyStore;
  clients: ClientStore;
  notices: NoticeStore;
  /** Release connections; pending writes finish first. */
  close(): Promise<void>;
}
