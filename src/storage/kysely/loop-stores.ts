import { sql, type Kysely } from 'kysely';
import type { ResourceStores, Storage } from '../../kernel/ports/index.ts';
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
import { once } from './loop-migrations.ts';
import type { Tables } from './tables.ts';

/**
 * The loop's ten stores over one database, each guarded so that a busy, full or unreachable
 * database is a 503, not a 500. The two databases differ in what they can do: PostgreSQL skips
 * rows locked by another instance's outbox worker, and reads longer pages.
 */
function createLoopStores(db: Kysely<Tables>, dialect: 'sqlite' | 'postgres') {
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

/**
 * The storage ports over a database both adapters open alike: the loop's tables migrated (the
 * database closed again if that fails), the ten stores, the reference service's resources
 * migrated on first use, a ping and a close. What differs, the dialect and how each migrates
 * (PostgreSQL under an advisory lock), is passed in.
 */
export async function openLoopStorage(
  db: Kysely<Tables>,
  options: {
    dialect: 'sqlite' | 'postgres';
    migrate: () => Promise<unknown>;
    resources: () => Promise<ResourceStores>;
  },
): Promise<Storage & { db: Kysely<Tables> }> {
  try {
    await options.migrate();
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    db,
    ...createLoopStores(db, options.dialect),
    resources: once(options.resources),
    ping: async () => {
      await sql`SELECT 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
