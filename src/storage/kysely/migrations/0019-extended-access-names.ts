import { sql, type Kysely, type Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * Extended access has one name in the database too: the tables and their indexes that the first
 * release called "exemptions" (`0012`, `0015`, `0017`) take the name the API, the CLI and the docs
 * use. Rows, ids and the audit trail are kept as they are; only the names move. The indexes are
 * dropped and made again under their new names, since SQLite cannot rename an index.
 */
export function extendedAccessNames(dialect: MigrationDialect): Migration {
  const grants = named(dialect, 'extended_access_grants');
  const requests = named(dialect, 'extended_access_requests');
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex(named(dialect, 'client_exemptions_client')).execute();
      await db.schema.dropIndex(named(dialect, 'client_exemptions_one_per_subject')).execute();
      await db.schema.dropIndex(named(dialect, 'exemption_requests_client')).execute();
      await db.schema.alterTable(named(dialect, 'client_exemptions')).renameTo(grants).execute();
      await db.schema.alterTable(named(dialect, 'exemption_requests')).renameTo(requests).execute();
      await db.schema.alterTable(requests).renameColumn('exemption_id', 'grant_id').execute();
      await db.schema.createIndex(`${grants}_client`).on(grants).column('client_id').execute();
      await db.schema.createIndex(`${requests}_client`).on(requests).column('client_id').execute();
      // One grant in force per client and subject, as 0017 made it.
      await db.schema
        .createIndex(`${grants}_one_per_subject`)
        .on(grants)
        .unique()
        .expression(
          sql`client_id, subject_kind, version, coalesce(method, ''), coalesce(path, ''), coalesce(element, '')`,
        )
        .where(sql.ref('revoked_at'), 'is', null)
        .execute();
    },
  };
}
