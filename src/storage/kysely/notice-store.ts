import { sql, type Insertable, type Kysely } from 'kysely';
import type { Brownout, NoticeKind, RecordedNotice } from '../../core/notices/index.ts';
import type { NoticeStore, OutboxNotice } from '../../kernel/ports/notices.ts';
import { asIs, inColumn, json, matching, numeric, optional, readPage, rowMapping } from './mapping.ts';
import type { BrownoutsTable, NoticeOutboxTable, Tables } from './tables.ts';

export interface NoticeStoreOptions {
  /**
   * PostgreSQL: claim with `FOR UPDATE SKIP LOCKED`, so concurrent workers skip each other's rows.
   * SQLite serialises writers, so its single `UPDATE … RETURNING` is already exclusive.
   */
  skipLocked: boolean;
}

export function createNoticeStore(db: Kysely<Tables>, options: NoticeStoreOptions): NoticeStore {
  return {
    async enqueue(rows) {
      let inserted = 0;
      for (const r of rows) {
        const result = await db
          .insertInto('versionary_notice_outbox')
          .values({
            ...(columnsOf({
              ...r,
              attempts: 0,
              lastError: null,
              nextAttemptAt: r.createdAt,
              updatedAt: r.createdAt,
              sentAt: null,
            }) as Omit<Insertable<NoticeOutboxTable>, 'id'>),
            lease_owner: null,
            lease_until: null,
          })
          .onConflict((oc) =>
            oc.columns(['client_id', 'subject', 'kind', 'step', 'sunset_at', 'channel', 'recipient']).doNothing(),
          )
          .executeTakeFirst();
        inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
      }
      return inserted;
    },
    async recorded() {
      const rows = await db
        .selectFrom('versionary_notice_outbox')
        .select((eb) => ['client_id', 'subject', 'kind', 'step', 'sunset_at', eb.fn.min('created_at').as('planned_at')])
        .groupBy(['client_id', 'subject', 'kind', 'step', 'sunset_at'])
        .execute();
      return rows.map((r): RecordedNotice => ({
        clientId: r.client_id,
        subject: r.subject,
        kind: r.kind as NoticeKind,
        step: r.step,
        sunsetAt: Number(r.sunset_at),
        plannedAt: Number(r.planned_at),
      }));
    },
    async claim({ owner, now, leaseMs, limit, channels }) {
      if (channels.length === 0) return [];
      let due = db
        .selectFrom('versionary_notice_outbox')
        .select('id')
        .where('status', 'in', ['pending', 'retrying'])
        .where('next_attempt_at', '<=', now)
        .where('channel', 'in', [...channels])
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit);
      if (options.skipLocked) due = due.forUpdate().skipLocked();
      const rows = await db
        .updateTable('versionary_notice_outbox')
        .set({ lease_owner: owner, lease_until: now + leaseMs })
        .where('id', 'in', due)
        .returningAll()
        .execute();
      return rows.map(toNotice).sort((a, b) => a.id - b.id);
    },
    async complete({ id, owner, outcome }) {
      const base = { status: outcome.status, updated_at: outcome.at, lease_owner: null, lease_until: null };
      const values =
        outcome.status === 'sent'
          ? { ...base, sent_at: outcome.at, last_error: null }
          : outcome.status === 'retrying'
            ? { ...base, next_attempt_at: outcome.nextAttemptAt, last_error: outcome.error.slice(0, 2000) }
            : outcome.status === 'failed'
              ? { ...base, last_error: outcome.error.slice(0, 2000) }
              : base;
      const counted = outcome.status === 'unsubscribed' ? values : { ...values, attempts: sql<number>`attempts + 1` };
      const result = await db
        .updateTable('versionary_notice_outbox')
        .set(counted)
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async unsubscribe({ clientId, recipient, at }) {
      const result = await db
        .updateTable('versionary_notice_outbox')
        .set({ status: 'unsubscribed', updated_at: at })
        .where('client_id', '=', clientId)
        .where('recipient', '=', recipient)
        .where('status', 'in', ['pending', 'retrying'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    list({ clientId, status, kind, limit, afterId }) {
      const query = db.selectFrom('versionary_notice_outbox').selectAll().where('id', '>', afterId);
      return readPage(matching(query, { client_id: clientId, status, kind }), limit, toNotice);
    },
    async get(id) {
      const row = await db.selectFrom('versionary_notice_outbox').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toNotice(row) : undefined;
    },
    async listBrownouts() {
      const rows = await db.selectFrom('versionary_brownouts').selectAll().orderBy('starts_at').orderBy('id').execute();
      return rows.map(brownouts.fromRow);
    },
    async saveBrownout(b) {
      await db
        .insertInto('versionary_brownouts')
        .values({ ...(brownouts.toRow(b) as Omit<Insertable<BrownoutsTable>, 'created_at'>), created_at: b.createdAt })
        .execute();
    },
    async deleteBrownout(id) {
      const result = await db.deleteFrom('versionary_brownouts').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

const { columnsOf, fromRow: toNotice } = rowMapping<OutboxNotice>({
  id: numeric,
  clientId: asIs,
  subject: asIs,
  kind: asIs,
  step: asIs,
  sunsetAt: numeric,
  channel: asIs,
  recipient: asIs,
  payload: asIs,
  status: asIs,
  attempts: numeric,
  lastError: asIs,
  nextAttemptAt: numeric,
  createdAt: numeric,
  updatedAt: numeric,
  sentAt: numeric,
});

const brownouts = rowMapping<Brownout>({
  id: asIs,
  version: asIs,
  endpoint: optional(asIs),
  startsAt: numeric,
  endsAt: numeric,
  clientId: optional(asIs),
  clients: inColumn('target_clients', optional(json)),
  calledWithinDays: optional(numeric),
});
