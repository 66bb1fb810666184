import type { Kysely, Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * Each client's minimum version (`PATCH /admin/v1/clients/{id}` with `minimumVersion`): the oldest
 * version it may still call, so that a client that migrated never slides back. Null for every
 * client so far: none has one until an operator sets it.
 */
export function clientMinimumVersion(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable(named(dialect, 'clients')).addColumn('minimum_version', 'text').execute();
    },
  };
}
