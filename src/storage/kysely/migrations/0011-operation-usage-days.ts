import { sql, type Kysely, type Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

const dayMs = 86_400_000;

/**
 * The hourly operation counts summed per UTC day (`usage_operation_days`), kept beside the hours
 * so that a long window reads one row per day instead of 24: reads take whole days from here and
 * the ragged hours at either end from the hours. Filled from the hours a database already holds,
 * a day at a time, in the same transaction as the table's creation (on PostgreSQL; SQLite's
 * migrations run before the service serves), so no read sees it half filled.
 */
export function operationUsageDays(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const days = named(dialect, 'usage_operation_days');
      await db.schema
        .createTable(days)
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('calls', 'bigint', (c) => c.notNull())
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint(named(dialect, 'usage_operation_days_pk'), ['day', 'version', 'endpoint', 'client_id'])
        .execute();
      // A day at a time: each statement stays far inside PostgreSQL's statement timeout, however
      // many hours the database holds.
      const hours = named(dialect, 'usage_operation_hours');
      const { rows } = await sql<{ first: number | string | null; last: number | string | null }>`SELECT
        (SELECT MIN(hour) FROM ${sql.table(hours)}) AS first, (SELECT MAX(hour) FROM ${sql.table(hours)}) AS last`.execute(
        db,
      );
      const [first, last] = [rows[0]?.first ?? null, rows[0]?.last ?? null];
      if (first === null || last === null) return;
      for (let day = Math.floor(Number(first) / dayMs) * dayMs; day <= Number(last); day += dayMs)
        await sql`INSERT INTO ${sql.table(days)} (day, version, endpoint, client_id, calls, last_seen)
          SELECT CAST(${day} AS BIGINT), version, endpoint, client_id, SUM(calls), MAX(last_seen) FROM ${sql.table(hours)}
          WHERE hour >= ${day} AND hour < ${day + dayMs} GROUP BY version, endpoint, client_id`.execute(db);
    },
  };
}
