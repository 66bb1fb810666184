import type { Kysely, Selectable } from 'kysely';
import type { ExtendedAccessRequest, ExtendedAccessRequestStore } from '../../kernel/ports/index.ts';
import { instant, subjectColumns, toSubject } from './columns.ts';
import type { ExtendedAccessRequestsTable, Tables } from './tables.ts';

/** Requests for extended access over Kysely: added, then decided once; never deleted. */
export function createExtendedAccessRequestStore(db: Kysely<Tables>): ExtendedAccessRequestStore {
  return {
    async insert(r) {
      await db
        .insertInto('versionary_extended_access_requests')
        .values({
          id: r.id,
          client_id: r.clientId,
          ...subjectColumns(r.subject),
          reason: r.reason,
          requested_until: r.requestedUntil,
          status: r.status,
          created_at: r.createdAt,
          decided_at: r.decidedAt,
          decided_by: r.decidedBy,
          decision_note: r.decisionNote,
          grant_id: r.grantId,
        })
        .execute();
    },
    async find(id) {
      const row = await db
        .selectFrom('versionary_extended_access_requests')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toRequest(row);
    },
    async list(options = {}) {
      let query = db.selectFrom('versionary_extended_access_requests').selectAll();
      if (options.clientId !== undefined) query = query.where('client_id', '=', options.clientId);
      if (options.status !== undefined) query = query.where('status', '=', options.status);
      return (await query.orderBy('created_at').orderBy('id').execute()).map(toRequest);
    },
    async decide({ id, status, at, by, note, grantId }) {
      // Only a pending row changes: two owners deciding at once, one wins.
      const result = await db
        .updateTable('versionary_extended_access_requests')
        .set({ status, decided_at: at, decided_by: by, decision_note: note, grant_id: grantId })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

function toRequest(row: Selectable<ExtendedAccessRequestsTable>): ExtendedAccessRequest {
  return {
    id: row.id,
    clientId: row.client_id,
    subject: toSubject(row),
    reason: row.reason,
    requestedUntil: instant(row.requested_until),
    status: row.status === 'granted' || row.status === 'declined' ? row.status : 'pending',
    createdAt: Number(row.created_at),
    decidedAt: instant(row.decided_at),
    decidedBy: row.decided_by,
    decisionNote: row.decision_note,
    grantId: row.grant_id,
  };
}
