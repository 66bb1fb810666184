import type { ColumnDefinitionBuilder } from 'kysely';

/** Dialect facts the shared migrations need. */
export interface MigrationDialect {
  /** Column type of an auto-incrementing primary key. */
  serial: 'integer' | 'serial' | 'bigserial';
}

/** The column builder of an auto-incrementing primary key in a dialect. */
export function serialKey(dialect: MigrationDialect): (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  // SQLite needs AUTOINCREMENT so ids are never reused; PostgreSQL's serial types already are.
  return (c) => (dialect.serial === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey());
}
