import { sql, type Kysely, type Transaction } from 'kysely';
import type { OperationCount, OperationUsageRow, UsageStore, UsageWindow } from '../../kernel/ports/index.ts';
import type { OperationCountColumns, Tables } from './tables.ts';
import { addUp, dayMs, dayParts, filterSql, hourMs, scanPages, sortedSums, type Sum } from './usage-paged-scan.ts';
import { sortedByKey, upsertRollup } from './usage-rollups.ts';

const hourOf = (at: number) => Math.floor(at / hourMs) * hourMs;
const dayOf = (at: number) => Math.floor(at / dayMs) * dayMs;

type OperationMethods = Pick<UsageStore, 'addOperationCounts' | 'operationUsage' | 'pruneOperationCounts'>;
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
  const hours = merge(
    counts.map((c) => ({
      at: hourOf(c.hour),
      version: c.version,
      endpoint: c.endpoint,
      client_id: c.clientId,
      calls: c.calls,
      last_seen: c.lastSeen,
    })),
  );
  const days = merge(hours.map((r) => ({ ...r, at: dayOf(r.at) })));
  for (const [{ table, time }, rows] of [
    [sources.hours, hours],
    [sources.days, days],
  ] as const)
    await upsertRollup(tx, {
      table,
      keys: [time, ...keyColumns],
      rows: rows.map(({ at, ...r }) => ({ [time]: at, ...r })),
    });
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
    } else byKey.set(key, { ...r });
  }
  return sortedByKey(byKey);
}

/**
 * Rows per read step. On SQLite a step runs on the event loop, so a page is a few milliseconds of
 * its time; on PostgreSQL only the rows' parsing does, and fewer round trips keep the read as quick
 * as one statement was.
 */
export const operationPageRows = { sqlite: 500, postgres: 2000 } as const;

/** The two tables a window is read from, with their time column and the span of one slice of a read. */
const sources = {
  hours: { table: 'versionary_usage_operation_hours', time: 'hour', sliceMs: 6 * hourMs },
  days: { table: 'versionary_usage_operation_days', time: 'day', sliceMs: 7 * dayMs },
} as const;

const keyColumns = ['version', 'endpoint', 'client_id'] as const;

/**
 * Calls per (version, endpoint, client) of the hours from the hour of `since` to `until`: whole UTC
 * days from the daily rows, the ragged hours at either end from the hourly ones. The SQLite driver
 * is synchronous, so one large read would hold the event loop (and every request) for seconds; this
 * reads in small steps instead: time slices of at most a week of days or six hours, each in
 * keyset pages of `pageRows` rows ({@link operationPageRows}) in primary-key order, summed here, with a turn of
 * the event loop between steps. On PostgreSQL the same steps hand the connection back between them.
 */
async function readOperationUsage(
  db: Kysely<Tables>,
  options: UsageWindow,
  pageRows: number,
): Promise<OperationUsageRow[]> {
  // The hours held bound the window: a window reaching far past them reads no empty slices. Two
  // subqueries, each one step down the primary key's index (SQLite scans for MIN and MAX together).
  const { rows: bounds } = await sql<{
    first: number | string | null;
    last: number | string | null;
  }>`SELECT (SELECT MIN(hour) FROM versionary_usage_operation_hours) AS first,
      (SELECT MAX(hour) FROM versionary_usage_operation_hours) AS last`.execute(db);
  const [first, last] = [bounds[0]?.first, bounds[0]?.last];
  if (first === null || first === undefined || last === null || last === undefined) return [];
  const from = Math.max(Math.floor(options.since / hourMs) * hourMs, Number(first));
  // Every hour that starts before until is in: the window ends where until's hour ends.
  const to = Math.min(
    options.until === undefined ? Infinity : Math.ceil(options.until / hourMs) * hourMs,
    Number(last) + hourMs,
  );
  if (to <= from) return [];
  const columns = sql`version, endpoint, client_id, calls, last_seen`;
  const conditions = filterSql(options);
  const sums = new Map<string, Sum>();
  for (const { table, window } of dayParts({ from, to }, sources.hours, sources.days))
    await scanPages(db, { table, keys: [window.time, ...keyColumns], columns, conditions, pageRows, window }, (rows) =>
      addUp(sums, keyColumns, rows),
    );
  return sortedSums(sums, ['version', 'endpoint', 'clientId']) as OperationUsageRow[];
}
