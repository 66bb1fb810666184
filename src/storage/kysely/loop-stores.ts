import type { Kysely } from 'kysely';
import { guardStores } from '../guard/transient-errors.ts';
import { createApiKeyStore } from './api-key-store.ts';
import { createApprovalStore } from './approval-store.ts';
import { createClientStore } from './client-store.ts';
import { createExtendedAccessRequestStore } from './extended-access-request-store.ts';
import { createExtendedAccessStore } from './extended-access-store.ts';
import { createIdempotencyStore } from './idempotency-store.ts';
import { createLifecycleStore } from './lifecycle-store.ts';
import { createNoticeStore } from './notice-store.ts';
import { createUsageLogStore } from './usage-log-store.ts';
import { operationPageRows } from './usage-operation-reads.ts';
import { createUsageStore } from './usage-store.ts';
import type { Tables } from './tables.ts';

/**
 * The loop's ten stores over one database, each guarded so that a busy, full or unreachable
 * database is a 503, not a 500. The two databases differ in what they can do: PostgreSQL skips
 * rows locked by another instance's outbox worker, and reads longer pages.
 */
export function createLoopStores(db: Kysely<Tables>, dialect: 'sqlite' | 'postgres') {
  return guardStores({
    lifecycle: createLifecycleStore(db),
    usage: createUsageStore(db, { operationPageRows: operationPageRows[dialect] }),
    usageLog: createUsageLogStore(db),
    apiKeys: createApiKeyStore(db),
    approvals: createApprovalStore(db),
    extendedAccess: createExtendedAccessStore(db),
    extendedAccessRequests: createExtendedAccessRequestStore(db),
    idempotency: createIdempotencyStore(db),
    clients: createClientStore(db),
    notices: createNoticeStore(db, { skipLocked: dialect === 'postgres' }),
  });
}
