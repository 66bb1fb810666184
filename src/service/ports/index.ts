export type { Page, PageOptions, UserRecord, UserStatus, UserStore, UserValues, WriteOutcome } from './users.ts';
export type { PostRecord, PostStore } from './posts.ts';
export type { PoolStats, Storage } from './storage.ts';
export type { ChangeFeed, ChangeFeedHealth, ChangeListener } from './change-feed.ts';
export type { EndpointDeprecation, LifecycleStore, StoredSchedule, UsageCall, UsageStore, UsageSummary } from './lifecycle.ts';
export type { ApiKeyRecord, ApiKeyStore } from './api-keys.ts';
export type { BeginOutcome, IdempotencyStore, StoredResponse } from './idempotency.ts';
