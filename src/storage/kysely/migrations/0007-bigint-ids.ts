import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationDialect } from './dialect.ts';

/** Migration `0007-bigint-ids`: 64-bit user and post ids on PostgreSQL. */
export function bigintIds(dialect: MigrationDialect): Migration {
  return {
    // The API promises ids up to 15 digits (int64), and PostgreSQL's `serial` is int4: a lookup of
    // a larger id failed inside the driver. SQLite's INTEGER is already 64-bit. The ALTER rewrites
    // both tables once, at the start that applies it.
    async up(db: Kysely<unknown>) {
      if (dialect.serial === 'integer') return;
      await sql`ALTER TABLE users ALTER COLUMN id TYPE bigint`.execute(db);
      await sql`ALTER TABLE posts ALTER COLUMN id TYPE bigint, ALTER COLUMN user_id TYPE bigint`.execute(db);
      for (const table of ['users', 'posts']) {
        await sql`DO $$ BEGIN EXECUTE format('ALTER SEQUENCE %s AS bigint', pg_get_serial_sequence(${sql.lit(table)}, 'id')); END $$`.execute(
          db,
        );
      }
    },
  };
}
