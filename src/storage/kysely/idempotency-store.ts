import type { Kysely } from 'kysely';
import type { IdempotencyStore } from '../../kernel/ports/index.ts';
import { matching } from './mapping.ts';
import type { Tables } from './tables.ts';

/**
 * `Idempotency-Key` records over Kysely. The claim is an INSERT that does nothing on conflict,
 * so two concurrent first attempts cannot both run.
 */
export function createIdempotencyStore(db: Kysely<Tables>): IdempotencyStore {
  return {
    async begin({ clientId, key, fingerprint, now, expiredBefore, staleRunningBefore }) {
      // Expired records of every client go here, on the created_at index, so the table stays bounded.
      await db.deleteFrom('versionary_idempotency_keys').where('created_at', '<', expiredBefore).execute();
      await matching(db.deleteFrom('versionary_idempotency_keys'), { client_id: clientId, key, state: 'running' })
        .where('created_at', '<', staleRunningBefore)
        .execute();
      const inserted = await db
        .insertInto('versionary_idempotency_keys')
        .values({
          client_id: clientId,
          key,
          fingerprint,
          state: 'running',
          status: null,
          headers: null,
          body: null,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['client_id', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { kind: 'started' };
      const stored = db.selectFrom('versionary_idempotency_keys').selectAll();
      const row = await matching(stored, { client_id: clientId, key }).executeTakeFirst();
      if (!row) return { kind: 'running' };
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state !== 'done') return { kind: 'running' };
      return {
        kind: 'done',
        response: {
          status: Number(row.status),
          headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
          body: row.body ?? '',
        },
      };
    },
    async complete({ clientId, key, claimedAt, response }) {
      await db
        .updateTable('versionary_idempotency_keys')
        .set({ state: 'done', status: response.status, headers: JSON.stringify(response.headers), body: response.body })
        .where((eb) => eb.and(claim(clientId, key, claimedAt)))
        .execute();
    },
    async abandon({ clientId, key, claimedAt }) {
      await matching(db.deleteFrom('versionary_idempotency_keys'), claim(clientId, key, claimedAt)).execute();
    },
  };
}

/** The record of a claim, while it still holds its key (made at `claimedAt`, still running). */
const claim = (clientId: string, key: string, claimedAt: number) => ({
  client_id: clientId,
  key,
  created_at: claimedAt,
  state: 'running',
});
