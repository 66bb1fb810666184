import { sql, type Kysely } from 'kysely';
import type { OperationUsageRow } from '../../kernel/ports/index.ts';
import type { Tables } from './tables.ts';
import { codePointOrder, dayMs, filterSql, hourMs, scanPages, type Filters } from './usage-paged-scan.ts';

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

type Source = (typeof sources)[keyof typeof sources];

interface Part extends Filters {
  source: Source;
  from: number;
  to: number;
}

const keyColumns = ['version', 'endpoint', 'client_id'] as const;

interface PageRow extends Record<string, unknown> {
  version: string;
  endpoint: string;
  client_id: string;
  calls: number | string;
  last_seen: number | string;
}

/**
 * Calls per (version, endpoint, client) of the hours from the hour of `since` to `until`: whole UTC
 * days from the daily rows, the ragged hours at either end from the hourly ones. The SQLite driver
 * is synchronous, so one large read would hold the event loop (and every request) for seconds; this
 * reads in small steps instead: time slices of at most a week of days or six hours, each in
 * keyset pages of `pageRows` rows ({@link operationPageRows}) in primary-key order, summed here, with a turn of
 * the event loop between steps. On PostgreSQL the same steps hand the connection back between them.
 */
export async function readOperationUsage(
  db: Kysely<Tables>,
  options: { since: number; until?: number } & Filters,
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
  const filters = { version: options.version, clientId: options.clientId };
  const daysFrom = Math.ceil(from / dayMs) * dayMs;
  const daysTo = Math.floor(to / dayMs) * dayMs;
  const parts: Part[] =
    daysTo > daysFrom
      ? [
          { source: sources.hours, from, to: daysFrom, ...filters },
          { source: sources.days, from: daysFrom, to: daysTo, ...filters },
          { source: sources.hours, from: daysTo, to, ...filters },
        ]
      : [{ source: sources.hours, from, to, ...filters }];
  const sums = new Map<string, OperationUsageRow>();
  for (const part of parts)
    for (let start = part.from; start < part.to; start += part.source.sliceMs)
      await readSlice(
        db,
        { ...part, from: start, to: Math.min(part.to, start + part.source.sliceMs) },
        { pageRows, sums },
      );
  return [...sums.values()].sort(byKey);
}

/** Add one slice's rows into `sums`, a page at a time. */
async function readSlice(
  db: Kysely<Tables>,
  part: Part,
  { pageRows, sums }: { pageRows: number; sums: Map<string, OperationUsageRow> },
): Promise<void> {
  const { table, time } = part.source;
  const conditions = [sql`${sql.ref(time)} >= ${part.from}`, sql`${sql.ref(time)} < ${part.to}`, ...filterSql(part)];
  const columns = sql`${sql.ref(time)}, version, endpoint, client_id, calls, last_seen`;
  await scanPages<PageRow>(db, { table, keys: [time, ...keyColumns], columns, conditions, pageRows }, (rows) => {
    for (const r of rows) {
      const key = `${r.version}\u0000${r.endpoint}\u0000${r.client_id}`;
      // Both drivers may hand back bigints as strings.
      const calls = Number(r.calls);
      const lastSeen = Number(r.last_seen);
      const sum = sums.get(key);
      if (!sum) sums.set(key, { version: r.version, endpoint: r.endpoint, clientId: r.client_id, calls, lastSeen });
      else {
        sum.calls += calls;
        if (lastSeen > sum.lastSeen) sum.lastSeen = lastSeen;
      }
    }
  });
}

function byKey(a: OperationUsageRow, b: OperationUsageRow): number {
  return (
    codePointOrder(a.version, b.version) ||
    codePointOrder(a.endpoint, b.endpoint) ||
    codePointOrder(a.clientId, b.clientId)
  );
}
