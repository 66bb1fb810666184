import type { Kysely, SelectQueryBuilder } from 'kysely';
import type {
  ApprovalStore,
  ChangeApproval,
  ExtendedAccessGrant,
  ExtendedAccessRequest,
  ExtendedAccessRequestStore,
  ExtendedAccessStore,
} from '../../kernel/ports/index.ts';
import { asIs, inColumn, matching, numeric, rowMapping, subject, type Fields, type Row } from './mapping.ts';
import type { Tables } from './tables.ts';

type Loose = Record<string, Row>;
type Query = SelectQueryBuilder<Loose, string, Row>;

/**
 * The one shape of the loop's dated audit tables (approvals, grants of extended access, requests
 * for it): rows are added, then closed once (revoked, decided) by an UPDATE that changes only a
 * row still open, so of two closing at once one wins; none is ever deleted. Lists are oldest
 * first, by the record's date and then its id.
 */
function auditRows<Rec extends { id: string }>(
  tables: Kysely<Tables>,
  table: keyof Tables,
  options: { fields: Fields<Rec>; datedBy: string },
) {
  const db = tables as unknown as Kysely<Loose>;
  const { toRow, columnsOf, fromRow } = rowMapping(options.fields);
  const list = async (narrow: (query: Query) => Query = (query) => query) =>
    (await narrow(db.selectFrom(table).selectAll()).orderBy(options.datedBy).orderBy('id').execute()).map(fromRow);
  return {
    columnsOf,
    list,
    async insert(record: Rec): Promise<void> {
      await db.insertInto(table).values(toRow(record)).execute();
    },
    async find(id: string): Promise<Rec | undefined> {
      const row = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },
    /** Set `values` on the record `id` while its columns still read `open`; false when they did not. */
    async close(id: string, values: Partial<Rec>, open: Row): Promise<boolean> {
      const update = db.updateTable(table).set(columnsOf(values)).where('id', '=', id);
      return Number((await matching(update, open).executeTakeFirst()).numUpdatedRows) > 0;
    },
  };
}

const revocable = <Rec extends { id: string; revokedAt: number | null; revokedBy: string | null }>(
  rows: ReturnType<typeof auditRows<Rec>>,
) => ({
  revoke: ({ id, at, by }: { id: string; at: number; by: string }) =>
    rows.close(id, { revokedAt: at, revokedBy: by } as Partial<Rec>, { revoked_at: null }),
});

/** Change approvals: added and revoked, never deleted. */
export function createApprovalStore(db: Kysely<Tables>): ApprovalStore {
  const rows = auditRows<ChangeApproval>(db, 'versionary_change_approvals', {
    datedBy: 'approved_at',
    fields: {
      id: asIs,
      fingerprint: asIs,
      reason: asIs,
      approvedBy: asIs,
      approvedAt: numeric,
      expiresAt: numeric,
      revokedAt: numeric,
      revokedBy: asIs,
    },
  });
  return {
    insert: rows.insert,
    find: rows.find,
    list: ({ now, includeRevoked }) =>
      rows.list((query) =>
        includeRevoked
          ? query
          : query
              .where('revoked_at', 'is', null)
              .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)])),
      ),
    ...revocable(rows),
  };
}

/** Grants of extended access: added and revoked, never deleted. */
export function createExtendedAccessStore(db: Kysely<Tables>): ExtendedAccessStore {
  const rows = auditRows<ExtendedAccessGrant>(db, 'versionary_extended_access_grants', {
    datedBy: 'granted_at',
    fields: {
      id: asIs,
      clientId: asIs,
      subject,
      until: inColumn('until_at', numeric),
      reason: asIs,
      grantedBy: asIs,
      grantedAt: numeric,
      revokedAt: numeric,
      revokedBy: asIs,
    },
  });
  /** The client's grant in force for the subject of `grant`, if any. */
  const activeOf = async (grant: ExtendedAccessGrant) => {
    const owner = rows.columnsOf({ clientId: grant.clientId, subject: grant.subject });
    return (await rows.list((query) => matching(query, { ...owner, revoked_at: null })))[0];
  };
  return {
    async insert(grant) {
      const existing = grant.revokedAt === null ? await activeOf(grant) : undefined;
      if (existing) return existing;
      try {
        await rows.insert(grant);
      } catch (error) {
        // Another instance granted the same subject between the look and the write.
        const winner = await activeOf(grant);
        if (winner) return winner;
        throw error;
      }
      return undefined;
    },
    find: rows.find,
    list: (options = {}) =>
      rows.list((query) =>
        matching(query, { client_id: options.clientId, revoked_at: options.includeRevoked ? undefined : null }),
      ),
    ...revocable(rows),
  };
}

/** Requests for extended access: added, then decided once; never deleted. */
export function createExtendedAccessRequestStore(db: Kysely<Tables>): ExtendedAccessRequestStore {
  const rows = auditRows<ExtendedAccessRequest>(db, 'versionary_extended_access_requests', {
    datedBy: 'created_at',
    fields: {
      id: asIs,
      clientId: asIs,
      subject,
      reason: asIs,
      requestedUntil: numeric,
      status: {
        toRow: (status) => ({ status }),
        fromRow: ({ status }) => (status === 'granted' || status === 'declined' ? status : 'pending'),
      },
      createdAt: numeric,
      decidedAt: numeric,
      decidedBy: asIs,
      decisionNote: asIs,
      grantId: asIs,
    },
  });
  return {
    insert: rows.insert,
    find: rows.find,
    list: (options = {}) =>
      rows.list((query) => matching(query, { client_id: options.clientId, status: options.status })),
    // Only a pending row changes: two owners deciding at once, one wins.
    decide: ({ id, status, at, by, note, grantId }) =>
      rows.close(id, { status, decidedAt: at, decidedBy: by, decisionNote: note, grantId }, { status: 'pending' }),
  };
}
