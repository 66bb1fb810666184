import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { UsageStore } from '../../service/ports/index.ts';
import type { Tables } from './tables.ts';

const hourMs = 3_600_000;
const hourOf = (at: number) => Math.floor(at / hourMs) * hourMs;
/** Rows per INSERT: 500 rows of 6 values stays far below either database's parameter limit. */
const chunk = 500;

type OperationMethods = Pick<UsageStore, 'addOperationCounts' | 'operationUsage' | 'pruneOperationCounts'>;

/**
 * The hourly counts of calls to every version (`versionary_usage_operation_hours`): upserts that add calls
 * and keep the latest `last_seen` (the same SQL on SQLite and PostgreSQL: CASE, not MAX/GREATEST),
 * reads summed over the hours of a window, and deletion by hour for retention.
 */
export function operationHoursStore(db: Kysely<Tables>): OperationMethods {
  return {
    async addOperationCounts(counts) {
      if (counts.length === 0) return;
      // Merged by key first (a caller may hand the same key twice, which one upsert statement
      // cannot take on PostgreSQL), then sorted, so that concurrent writers lock rows in one order
      // and cannot deadlock each other.
      const byKey = new Map<string, Tables['versionary_usage_operation_hours']>();
      for (const c of counts) {
        const hour = hourOf(c.hour);
        const key = `${hour}\u0000${c.version}\u0000${c.endpoint}\u0000${c.clientId}`;
        const row = byKey.get(key);
        if (row) {
          row.calls += c.calls;
          if (c.lastSeen > row.last_seen) row.last_seen = c.lastSeen;
        } else
          byKey.set(key, {
            hour,
            version: c.version,
            endpoint: c.endpoint,
            client_id: c.clientId,
            calls: c.calls,
            last_seen: c.lastSeen,
          });
      }
      const rows = [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
      const old = (column: string) => sql.ref(`versionary_usage_operation_hours.${column}`);
      const fresh = (column: string) => sql.ref(`excluded.${column}`);
      await db.transaction().execute(async (tx) => {
        for (let i = 0; i < rows.length; i += chunk)
          await tx
            .insertInto('versionary_usage_operation_hours')
            .values(rows.slice(i, i + chunk))
            .onConflict((oc) =>
              oc.columns(['hour', 'version', 'endpoint', 'client_id']).doUpdateSet({
                calls: sql`${old('calls')} + ${fresh('calls')}`,
                last_seen: sql`CASE WHEN ${fresh('last_seen')} > ${old('last_seen')} THEN ${fresh('last_seen')} ELSE ${old('last_seen')} END`,
              }),
            )
            .execute();
      });
    },
    async operationUsage(options) {
      const conditions: RawBuilder<unknown>[] = [sql`hour >= ${hourOf(options.since)}`];
      if (options.until !== undefined) conditions.push(sql`hour < ${options.until}`);
      if (options.version !== undefined) conditions.push(sql`version = ${options.version}`);
      if (options.clientId !== undefined) conditions.push(sql`client_id = ${options.clientId}`);
      const { rows } = await sql<{
        version: string;
        endpoint: string;
        client_id: string;
        calls: number | string;
        last_seen: number | string;
      }>`SELECT version, endpoint, client_id, SUM(calls) AS calls, MAX(last_seen) AS last_seen
        FROM versionary_usage_operation_hours WHERE ${sql.join(conditions, sql` AND `)}
        GROUP BY version, endpoint, client_id ORDER BY version, endpoint, client_id`.execute(db);
      // Both drivers may hand back bigint sums as strings.
      return rows.map((r) => ({
        version: r.version,
        endpoint: r.endpoint,
        clientId: r.client_id,
        calls: Number(r.calls),
        lastSeen: Number(r.last_seen),
      }));
    },
    async pruneOperationCounts({ before }) {
      const result = await db
        .deleteFrom('versionary_usage_operation_hours')
        .where('hour', '<', hourOf(before))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
