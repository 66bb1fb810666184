import type { PostStore } from './posts.ts';
import type { UserStore } from './users.ts';
import type { LifecycleStore } from './lifecycle.ts';
import type { UsageStore } from './usage.ts';
import type { ClientStore } from './clients.ts';
import type { ApiKeyStore } from './api-keys.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { NoticeStore } from './notices.ts';
import type { ApprovalStore } from './approvals.ts';

/** Everything the service needs from a database, picked by the composition root. */
export interface Storage {
  users: UserStore;
  posts: PostStore;
  lifecycle: LifecycleStore;
  usage: UsageStore;
  apiKeys: ApiKeyStore;
  idempotency: IdempotencyStore;
  clients: ClientStore;
  notices: NoticeStore;
  approvals: ApprovalStore;
  /** Answer quickly whether the database is reachable (the readiness probe); throws when it is not. */
  ping?(): Promise<void>;
  /** Connection pool usage, for metrics; absent on an embedded database. */
  poolStats?(): PoolStats;
  /** Release connections; pending writes finish first. */
  close(): Promise<void>;
}

/** A connection pool's usage at one instant. */
export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}
