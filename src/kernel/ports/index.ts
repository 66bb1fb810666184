export type {
  Page,
  UserListColumn,
  UserListRecord,
  UserRecord,
  UserStatus,
  UserStore,
  UserValues,
  Owner,
} from './users.ts';
export type { PostRecord, PostStore } from './posts.ts';
export type { ResourceStores, Storage } from './storage.ts';
export type { ChangeFeed, ChangeListener } from './change-feed.ts';
export type {
  DeprecationDates,
  EndpointDeprecation,
  LifecycleStore,
  LiveLifecycle,
  StoredSchedule,
} from './lifecycle.ts';
export type {
  ClientElementUsageRow,
  ClientUsageRow,
  OperationCount,
  OperationUsageRow,
  UsageCall,
  UsageRecorder,
  UsageStore,
} from './usage.ts';
export type { UsageLogStore } from './usage-log.ts';
export type { ApiKeyRecord, ApiKeyStore } from './api-keys.ts';
export type { ApprovalStore, ChangeApproval } from './approvals.ts';
export type { IdempotencyStore } from './idempotency.ts';
export type { Client, ClientContact, ClientStore, ClientWebhook } from './clients.ts';
export type { NoticeChannelName, NoticeStore, OutboxNotice } from './notices.ts';
export type { ExtendedAccessGrant, ExtendedAccessStore, ExtendedAccessSubject } from './extended-access.ts';
export type {
  ExtendedAccessDecision,
  ExtendedAccessDecisionNotifier,
  ExtendedAccessRequest,
  ExtendedAccessRequestStore,
} from './extended-access-requests.ts';
