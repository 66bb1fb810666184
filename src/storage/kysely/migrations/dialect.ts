import type { ColumnDefinitionBuilder } from 'kysely';

/** Dialect facts the shared migrations need. */
export interface MigrationDialect {
  /** Column type of an auto-incrementing primary key. */
  serial: 'integer' | 'serial' | 'bigserial';
  /**
   * `loop`: every name `versionary_…`, no users and posts (the reference service migrates those
   * itself). `legacy`: the layout before that (bare names, users and posts in the same history),
   * kept to finish migrating an old database before it is adopted, and for the upgrade tests.
   */
  layout: 'loop' | 'legacy';
}

/** The column builder of an auto-incrementing primary key in a dialect. */
export function serialKey(dialect: MigrationDialect): (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  // SQLite needs AUTOINCREMENT so ids are never reused; PostgreSQL's serial types already are.
  return (c) => (dialect.serial === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey());
}

/**
 * The name of a table, index or constraint of the loop in a layout: `versionary_` and the bare
 * name, so that the loop's tables can share an app's database or schema; the bare name in the
 * legacy layout (databases migrated before the prefix, see `adopt-legacy.ts`).
 */
export function named(dialect: MigrationDialect, name: string): string {
  return dialect.layout === 'legacy' ? name : `${loopPrefix}${name}`;
}

/** The prefix of every table, index and constraint the loop creates, and of its migration table. */
export const loopPrefix = 'versionary_';
