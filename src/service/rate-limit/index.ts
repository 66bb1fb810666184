export { installRateLimit } from './install-rate-limit.ts';
export type { InstallRateLimitOptions } from './install-rate-limit.ts';
export { createMemoryRateLimitStore } from './memory-store.ts';
export type { MemoryRateLimitStore, MemoryRateLimitStoreOptions } from './memory-store.ts';
export { policyFor, rateLimitFields } from './policy.ts';
export type { AppliedPolicy } from './policy.ts';
export { defaultRateLimitSettings, parseRateLimitSettings } from './settings.ts';
export type { RateLimitSettings, RoleLimit } from './settings.ts';
export type { RateLimitHit, RateLimitHitOptions, RateLimitStore } from './store.ts';
