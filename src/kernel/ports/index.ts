export type {
  Page,
  PageOptions,
  UserListColumn,
  UserListRecord,
  UserRecord,
  UserStatus,
  UserStore,
  UserValues,
  WriteOutcome,
  Owner,
} from './users.ts';
export type { PostRecord, PostStore } from './posts.ts';
export type { PoolStats, ResourceStores, Storage } from './storage.ts';
export type { ChangeFeed, ChangeFeedHealth, ChangeListener } from './change-feed.ts';
export type { EndpointDeprecation, LifecycleStore, StoredSchedule } from './lifecycle.ts';
export type {
  ClientElementUsageRow,
  ClientTotalsRow,
  ClientUsageRow,
  ElementUsageRow,
  DailyUsageRow,
  OperationCount,
  OperationUsageRow,
  UsageCall,
  UsageInsertOptions,
  UsageStore,
  UsageSummary,
} from './usage.ts';
export type { ApiKeyRecord, ApiKeyStore } from './api-keys.ts';
export type { ApprovalStore, ChangeApproval } from './approvals.ts';
export type { BeginOutcome, IdempotencyStore, StoredResponse } from './idempotency.ts';
export type { Client, ClientContact, ClientPage, ClientStore, ClientWebhook } from './clients.ts';
export type {
  DeliveryOutcome,
  NewOutboxNotice,
  NoticeChannelName,
  NoticeStore,
  OutboxNotice,
  OutboxStatus,
} from './notices.ts';
