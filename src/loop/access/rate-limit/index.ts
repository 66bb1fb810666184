export { addressRateLimitKey, rateLimitKey } from './install-rate-limit.ts';
export { addressKey } from './address-key.ts';

export { createMemoryRateLimitStore } from '../../../kernel/rate-limit/memory-store.ts';

export { policyFor, rateLimitFields } from './policy.ts';
export type { AppliedPolicy } from './policy.ts';

export type { RateLimitSettings } from './settings.ts';
export type { RateLimitStore } from '../../../kernel/ports/rate-limit.ts';
