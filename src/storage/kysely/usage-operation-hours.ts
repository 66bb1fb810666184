import { sql, type Kysely, type Transaction } from 'kysely';
import type { OperationCount, UsageStore } from '../../kernel/ports/index.ts';
import type { OperationCountColumns, Tables } from './tables.ts';
import { readOperationUsage } from './usage-operation-reads.ts';
import { upsertRollup } from './usage-rollups.ts';
import { dayMs, hourMs } from './usage-paged-scan.ts';

const hourOf = (at: number) => Math.floor(at / hourMs) * hourMs;
const dayOf = (at: number) => Math.floor(at / dayMs) * dayMs;

type OperationMethods = Pick<UsageStore, 'addOperationCounts' | 'operationUsage' | 'pruneOperationCounts'>;
type CountTable = 'versionary_usage_operation_hours' | 'versionary_usage_operation_days';
/** A row of either table: `at` is its hour or its day. */
type CountRow = OperationCountColumns & { at: number };

/**
 * The hourly counts of calls to every version (`versionary_usage_operation_hours`) and their sums
 * per UTC day beside them (`versionary_usage_operation_days`), always written, pruned and read
 * together: a day's row is the sum of that day's hours the table holds. Upserts add calls and
 * keep the latest `last_seen` (the same SQL on SQLite and PostgreSQL: CASE, not MAX/GREATEST);
 * reads sum whole days and the hours at the edges of a window; retention deletes by hour.
 */
export function operationHoursStore(db: Kysely<Tables>, options: { pageRows: number }): OperationMethods {
  return {
    async addOperationCounts(counts) {
      if (counts.length === 0) return;
      // One transaction for both tables: a read never sees an hour without its day.
      await db.transaction().execute((tx) => writeOperationCounts(tx, counts));
    },
    operationUsage: (window) => readOperationUsage(db, window, options.pageRows),
    async pruneOperationCounts({ before }) {
      const cut = hourOf(before);
      const day = dayOf(cut);
      return db.transaction().execute(async (tx) => {
        const result = await tx
          .deleteFrom('versionary_usage_operation_hours')
          .where('hour', '<', cut)
          .executeTakeFirst();
        // Whole days before the cut go; the day it falls inside is summed again from the hours it keeps.
        await tx
          .deleteFrom('versionary_usage_operation_days')
          .where('day', '<', cut > day ? day + dayMs : day)
          .execute();
        if (cut > day)
          await sql`INSERT INTO versionary_usage_operation_days (day, version, endpoint, client_id, calls, last_seen)
            SELECT CAST(${day} AS BIGINT), version, endpoint, client_id, SUM(calls), MAX(last_seen) FROM versionary_usage_operation_hours
            WHERE hour >= ${cut} AND hour < ${day + dayMs} GROUP BY version, endpoint, client_id`.execute(tx);
        return Number(result.numDeletedRows);
      });
    },
  };
}

/** Add operation counts to the hours and their days inside the caller's transaction. */
export async function writeOperationCounts(tx: Transaction<Tables>, counts: readonly OperationCount[]): Promise<void> {
  if (counts.length === 0) return;
  // Merged by key first (a caller may hand the same key twice, which one upsert statement
  // cannot take on PostgreSQL), then sorted, so that concurrent writers lock rows in one order
  // and cannot deadlock each other.
  const hours = merge(counts.map((c) => ({ ...c, at: hourOf(c.hour), client_id: c.clientId, last_seen: c.lastSeen })));
  const days = merge(hours.map((r) => ({ ...r, at: dayOf(r.at) })));
  await upsertCounts(tx, 'versionary_usage_operation_hours', hours);
  await upsertCounts(tx, 'versionary_usage_operation_days', days);
}

/** One row per (at, version, endpoint, client): calls added, the latest last_seen kept; sorted by that key. */
function merge(rows: readonly CountRow[]): CountRow[] {
  const byKey = new Map<string, CountRow>();
  for (const r of rows) {
    const key = `${r.at}\u0000${r.version}\u0000${r.endpoint}\u0000${r.client_id}`;
    const row = byKey.get(key);
    if (row) {
      row.calls += r.calls;
      if (r.last_seen > row.last_seen) row.last_seen = r.last_seen;
    } else
      byKey.set(key, {
        at: r.at,
        version: r.version,
        endpoint: r.endpoint,
        client_id: r.client_id,
        calls: r.calls,
        last_seen: r.last_seen,
      });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

function upsertCounts(tx: Transaction<Tables>, table: CountTable, rows: readonly CountRow[]): Promise<void> {
  const time = table === 'versionary_usage_operation_hours' ? 'hour' : 'day';
  return upsertRollup(tx, {
    table,
    keys: [time, 'version', 'endpoint', 'client_id'],
    rows: rows.map((r) => ({
      [time]: r.at,
      version: r.version,
      endpoint: r.endpoint,
      client_id: r.client_id,
      calls: r.calls,
      last_seen: r.last_seen,
    })),
  });
}
