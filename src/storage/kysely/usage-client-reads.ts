import { sql, type Kysely } from 'kysely';
import type { ClientUsageRow, UsageWindow } from '../../kernel/ports/index.ts';
import { matching, type Row } from './mapping.ts';
import type { Tables } from './tables.ts';
import { addUp, dayMs, dayParts, filterSql, minuteMs, scanPages, sortedSums, type Sum } from './usage-paged-scan.ts';
import { rollups } from './usage-rollups.ts';

// The tables of a window that does not hold every call: its edges in minutes, whole days between.
const minutes = { table: 'versionary_usage_minutes', time: 'minute', sliceMs: 60 * minuteMs } as const;
const days = { table: 'versionary_usage_days', time: 'day', sliceMs: 7 * dayMs } as const;

const columns = sql`client_id, version, endpoint, key_id, calls, first_seen, last_seen, user_agent`;
const keyColumns = ['client_id', 'version', 'endpoint', 'key_id'];

/**
 * Usage per (client, version, endpoint, key) of a window: the totals when the window holds every
 * call, else whole UTC days from the daily rollup and the minutes at the edges. Read in pages in
 * primary-key order (`scanPages`), in slices of an hour of minutes or a week of days, and summed
 * here: a long window over many keys, or an edge of busy minutes, never holds the event loop.
 */
export async function readByClient(
  db: Kysely<Tables>,
  options: UsageWindow,
  pageRows: number,
): Promise<ClientUsageRow[]> {
  const filters = filterSql(options);
  const {
    rows: [span],
  } = await sql<{
    first: number | string | null;
    last: number | string | null;
  }>`SELECT MIN(first_seen) AS first, MAX(last_seen) AS last
    FROM versionary_usage_totals${filters.length > 0 ? sql` WHERE ${sql.join(filters, sql` AND `)}` : sql``}`.execute(
    db,
  );
  if (span?.first === null || span?.first === undefined || span.last === null) return [];
  const last = Number(span.last);
  // A window that holds every recorded call (a lookback longer than the data) is the totals: exact, and small.
  const coversAll =
    Math.floor(options.since / minuteMs) * minuteMs <= Number(span.first) &&
    (options.until === undefined || Math.floor(last / minuteMs) * minuteMs < options.until);
  const sums = new Map<string, Sum>();
  // No call was recorded before the first: a window from 0 (the closing's lookback) starts there, not
  // in 1970 (some 2,900 weekly slices, each a query, before the first row).
  const from = { ...options, since: Math.max(options.since, Number(span.first)) };
  const parts = coversAll
    ? [{ table: 'versionary_usage_totals' as const, window: undefined }]
    : windowParts(from, last);
  for (const { table, window } of parts)
    await scanPages(db, { table, keys: rollups[table], columns, conditions: filters, pageRows, window }, (rows) =>
      addUp(sums, keyColumns, rows),
    );
  return sortedSums(sums, ['clientId', 'version', 'endpoint', 'keyId']).map(({ keyId, agent, ...row }) => ({
    ...(row as Omit<ClientUsageRow, 'keyId' | 'userAgent'>),
    ...(keyId !== '' ? { keyId: keyId as string } : {}),
    ...(agent ? { userAgent: agent as string } : {}),
  }));
}

/** Minutes at the edges and days between, up to the end of the last call's day when the window is open-ended. */
function windowParts({ since, until }: UsageWindow, last: number) {
  if (until !== undefined && until <= since) return [];
  const to = until ?? Math.floor(last / dayMs) * dayMs + dayMs;
  return dayParts({ from: Math.floor(since / minuteMs) * minuteMs, to }, minutes, days);
}

/**
 * Whether a client called a version (an endpoint, an element) before an instant: one indexed
 * probe per rollup, stopping at the first that answers yes.
 */
export async function readCalledBefore(
  db: Kysely<Tables>,
  o: { clientId: string; version: string; endpoint?: string; element?: string; before: number },
): Promise<boolean> {
  const calls = { client_id: o.clientId, version: o.version, endpoint: o.endpoint };
  const elementCalls = { client_id: o.clientId, version: o.version, element: o.element };
  const probes: Array<[table: keyof Tables, values: Row, time: string, operator: '<' | '<=', at: number]> =
    o.element !== undefined
      ? [['versionary_usage_elements', elementCalls, 'first_seen', '<', o.before]]
      : [
          ['versionary_usage_totals', calls, 'first_seen', '<', o.before],
          // Whole hours only: a refused call later in the closing hour must not count as an earlier one.
          ['versionary_usage_operation_hours', calls, 'hour', '<=', o.before - 3_600_000],
        ];
  const loose = db as unknown as Kysely<Record<string, Row>>;
  for (const [table, values, time, operator, at] of probes) {
    const query = matching(loose.selectFrom(table).select('client_id'), values).where(time, operator, at);
    if ((await query.limit(1).executeTakeFirst()) !== undefined) return true;
  }
  return false;
}
