import type { Kysely, Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * Targeted brownouts: the clients a brownout refuses (a JSON list; null for every client), and,
 * when the list was chosen from usage, the window it was chosen over. The list is fixed when the
 * brownout is planned, so who was browned out stays on record.
 */
export function brownoutTargets(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable(named(dialect, 'brownouts')).addColumn('target_clients', 'text').execute();
      await db.schema.alterTable(named(dialect, 'brownouts')).addColumn('called_within_days', 'integer').execute();
    },
  };
}
