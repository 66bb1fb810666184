import type { PostStore } from './posts.ts';
import type { UserStore } from './users.ts';
import type { LifecycleStore } from './lifecycle.ts';
import type { UsageStore } from './usage.ts';
import type { UsageLogStore } from './usage-log.ts';
import type { ClientStore } from './clients.ts';
import type { ApiKeyStore } from './api-keys.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { NoticeStore } from './notices.ts';
import type { ApprovalStore } from './approvals.ts';
import type { ExtendedAccessStore } from './extended-access.ts';
import type { ExtendedAccessRequestStore } from './extended-access-requests.ts';

/**
 * Everything the loop needs from a database, picked by the composition root: its own tables only
 * (`versionary_…`), so that it can share an app's database or schema.
 */
export interface Storage {
  lifecycle: LifecycleStore;
  usage: UsageStore;
  /** Offsets and leases of the access logs the control plane reads (`docs/gateway.md`). */
  usageLog: UsageLogStore;
  apiKeys: ApiKeyStore;
  idempotency: IdempotencyStore;
  clients: ClientStore;
  notices: NoticeStore;
  approvals: ApprovalStore;
  extendedAccess: ExtendedAccessStore;
  extendedAccessRequests: ExtendedAccessRequestStore;
  /**
   * The reference service's users and posts, on the same database: their tables are migrated (a
   * migration set of their own) by the first call. Only the reference service's resources call
   * it; the loop and the gateway never do, so their databases never hold these tables.
   */
  resources(): Promise<ResourceStores>;
  /** Answer quickly whether the database is reachable (the readiness probe); throws when it is not. */
  ping?(): Promise<void>;
  /** Connection pool usage, for metrics; absent on an embedded database. */
  poolStats?(): PoolStats;
  /** Release connections; pending writes finish first. */
  close(): Promise<void>;
}

/** The reference service's own stores: its app tables, not the loop's. */
export interface ResourceStores {
  users: UserStore;
  posts: PostStore;
}

/** A connection pool's usage at one instant. */
interface PoolStats {
  max: number;
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}
