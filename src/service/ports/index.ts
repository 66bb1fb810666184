export type { Page, PageOptions, UserRecord, UserStatus, UserStore, UserValues, WriteOutcome } from './users.ts';
export type { PostRecord, PostStore } from './posts.ts';
export type { Storage } from './storage.ts';
export type { EndpointDeprecation, LifecycleStore, StoredSchedule, UsageCall, UsageStore, UsageSummary } from './lifecycle.ts';
export type { ApiKeyRecord, ApiKeyStore } from './api-keys.ts';
export type { BeginOutcome, IdempotencyStore, StoredResponse } from './idempotency.ts';
export type { DeliveryOutcome, NewOutboxNotice, NoticeChannelName, NoticeStore, OutboxNotice, OutboxStatus } from './notices.ts';
