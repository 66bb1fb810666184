import type { Kysely, Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * What the config file last applied to each version's schedule, as a fingerprint of its entry. A
 * start applies the file only when its entry has changed since, so a change made through the
 * management API survives a restart with the same file. Null on rows written before: the file
 * applies to those once, as it always did.
 */
export function scheduleConfigFingerprint(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable(named(dialect, 'version_schedules')).addColumn('config_fingerprint', 'text').execute();
    },
  };
}
