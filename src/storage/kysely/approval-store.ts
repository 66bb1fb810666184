import type { Kysely, Selectable } from 'kysely';
import type { ApprovalStore, ChangeApproval } from '../../kernel/ports/index.ts';
import type { ChangeApprovalsTable, Tables } from './tables.ts';
import { instant } from './columns.ts';

/** Change approvals over Kysely: rows are only added and revoked, never deleted. */
export function createApprovalStore(db: Kysely<Tables>): ApprovalStore {
  return {
    async insert(a) {
      await db
        .insertInto('versionary_change_approvals')
        .values({
          id: a.id,
          fingerprint: a.fingerprint,
          reason: a.reason,
          approved_by: a.approvedBy,
          approved_at: a.approvedAt,
          expires_at: a.expiresAt,
          revoked_at: a.revokedAt,
          revoked_by: a.revokedBy,
        })
        .execute();
    },
    async find(id) {
      const row = await db
        .selectFrom('versionary_change_approvals')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toApproval(row);
    },
    async list({ now, includeRevoked }) {
      let query = db.selectFrom('versionary_change_approvals').selectAll();
      if (!includeRevoked)
        query = query
          .where('revoked_at', 'is', null)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
      return (await query.orderBy('approved_at').orderBy('id').execute()).map(toApproval);
    },
    async revoke({ id, at, by }) {
      const result = await db
        .updateTable('versionary_change_approvals')
        .set({ revoked_at: at, revoked_by: by })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

function toApproval(row: Selectable<ChangeApprovalsTable>): ChangeApproval {
  return {
    id: row.id,
    fingerprint: row.fingerprint,
    reason: row.reason,
    approvedBy: row.approved_by,
    approvedAt: Number(row.approved_at),
    expiresAt: instant(row.expires_at),
    revokedAt: instant(row.revoked_at),
    revokedBy: row.revoked_by,
  };
}
