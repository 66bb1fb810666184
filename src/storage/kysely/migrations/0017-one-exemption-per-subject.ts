import { sql, type Kysely, type Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

interface ActiveRow {
  id: string;
  client_id: string;
  subject_kind: string;
  version: string;
  method: string | null;
  path: string | null;
  element: string | null;
  until_at: number | string;
  granted_at: number | string;
}

/** Who revoked the duplicates this migration found, as the audit trail shows it. */
const duplicateRevoker = (kept: string) => `migration 0017 (duplicate of ${kept})`;

/**
 * One exemption in force per client and subject: a unique index over the rows not revoked (a
 * revoked grant stays in the trail, and a new one may follow it). Duplicates granted before the
 * rule are revoked first, keeping the one that reaches furthest (latest `until`, then the latest
 * granted), so no client loses a day of access it was given.
 */
export function oneExemptionPerSubject(dialect: MigrationDialect): Migration {
  const table = named(dialect, 'client_exemptions');
  return {
    async up(db: Kysely<unknown>) {
      const typed = db as unknown as Kysely<
        Record<string, ActiveRow & { revoked_at: number | null; revoked_by: string | null }>
      >;
      const rows = await typed.selectFrom(table).selectAll().where('revoked_at', 'is', null).execute();
      const now = Date.now();
      for (const [kept, ...others] of duplicateGroups(rows))
        for (const row of others)
          await typed
            .updateTable(table)
            .set({ revoked_at: now, revoked_by: duplicateRevoker(kept!.id) })
            .where('id', '=', row.id)
            .execute();
      // NULLs differ in a unique index: the subject's absent parts are compared as ''.
      await db.schema
        .createIndex(named(dialect, 'client_exemptions_one_per_subject'))
        .on(table)
        .unique()
        .expression(
          sql`client_id, subject_kind, version, coalesce(method, ''), coalesce(path, ''), coalesce(element, '')`,
        )
        .where(sql.ref('revoked_at'), 'is', null)
        .execute();
    },
  };
}

/** Active rows grouped by client and subject, each group of two or more with the one to keep first. */
function duplicateGroups(rows: readonly ActiveRow[]): ActiveRow[][] {
  const groups = new Map<string, ActiveRow[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.client_id, row.subject_kind, row.version, row.method, row.path, row.element]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const reach = (r: ActiveRow) => [Number(r.until_at), Number(r.granted_at)] as const;
  return [...groups.values()]
    .filter((g) => g.length > 1)
    .map((g) =>
      [...g].sort((a, b) => {
        const [ua, ga] = reach(a);
        const [ub, gb] = reach(b);
        return ub - ua || gb - ga || (a.id < b.id ? 1 : -1);
      }),
    );
}
