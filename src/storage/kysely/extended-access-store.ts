import type { Kysely, Selectable } from 'kysely';
import type { ExtendedAccessGrant, ExtendedAccessStore } from '../../kernel/ports/index.ts';
import { instant, subjectColumns, toSubject } from './columns.ts';
import type { ExtendedAccessGrantsTable, Tables } from './tables.ts';

/** Grants of extended access over Kysely: rows are only added and revoked, never deleted. */
export function createExtendedAccessStore(db: Kysely<Tables>): ExtendedAccessStore {
  return {
    async insert(e) {
      const existing = e.revokedAt === null ? await activeOf(db, e) : undefined;
      if (existing) return existing;
      try {
        await insertRow(db, e);
      } catch (error) {
        // Another instance granted the same subject between the look and the write.
        const winner = await activeOf(db, e);
        if (winner) return winner;
        throw error;
      }
      return undefined;
    },
    async find(id) {
      const row = await db
        .selectFrom('versionary_extended_access_grants')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toGrant(row);
    },
    async list(options = {}) {
      let query = db.selectFrom('versionary_extended_access_grants').selectAll();
      if (options.clientId !== undefined) query = query.where('client_id', '=', options.clientId);
      if (!options.includeRevoked) query = query.where('revoked_at', 'is', null);
      return (await query.orderBy('granted_at').orderBy('id').execute()).map(toGrant);
    },
    async revoke({ id, at, by }) {
      const result = await db
        .updateTable('versionary_extended_access_grants')
        .set({ revoked_at: at, revoked_by: by })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

async function insertRow(db: Kysely<Tables>, e: ExtendedAccessGrant): Promise<void> {
  await db
    .insertInto('versionary_extended_access_grants')
    .values({
      id: e.id,
      client_id: e.clientId,
      ...subjectColumns(e.subject),
      until_at: e.until,
      reason: e.reason,
      granted_by: e.grantedBy,
      granted_at: e.grantedAt,
      revoked_at: e.revokedAt,
      revoked_by: e.revokedBy,
    })
    .execute();
}

/** The client's grant in force for the subject of `e`, if any. */
async function activeOf(db: Kysely<Tables>, e: ExtendedAccessGrant): Promise<ExtendedAccessGrant | undefined> {
  const s = subjectColumns(e.subject);
  const row = await db
    .selectFrom('versionary_extended_access_grants')
    .selectAll()
    .where('client_id', '=', e.clientId)
    .where('subject_kind', '=', s.subject_kind)
    .where('version', '=', s.version)
    .where('method', s.method === null ? 'is' : '=', s.method)
    .where('path', s.path === null ? 'is' : '=', s.path)
    .where('element', s.element === null ? 'is' : '=', s.element)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && toGrant(row);
}

function toGrant(row: Selectable<ExtendedAccessGrantsTable>): ExtendedAccessGrant {
  return {
    id: row.id,
    clientId: row.client_id,
    subject: toSubject(row),
    until: Number(row.until_at),
    reason: row.reason,
    grantedBy: row.granted_by,
    grantedAt: Number(row.granted_at),
    revokedAt: instant(row.revoked_at),
    revokedBy: row.revoked_by,
  };
}
