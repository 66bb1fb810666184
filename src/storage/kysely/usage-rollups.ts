import { sql, type Kysely, type Transaction } from 'kysely';
import type { UsageCall } from '../../kernel/ports/index.ts';
import type { RollupValues, Tables } from './tables.ts';
import { dayMs, minuteMs } from './usage-paged-scan.ts';

/** User-Agents are kept to this length: evidence, not a storage sink. */
const maxUserAgent = 300;

type Row = Record<string, string | number | null> & RollupValues;

/** The rollup tables, each with the key columns of its primary key. */
export const rollups = {
  versionary_usage_minutes: ['minute', 'version', 'endpoint', 'client_id', 'key_id'],
  versionary_usage_days: ['day', 'version', 'endpoint', 'client_id', 'key_id'],
  versionary_usage_client_days: ['day', 'version', 'client_id'],
  versionary_usage_totals: ['version', 'endpoint', 'client_id', 'key_id'],
} as const;

/**
 * The rollup of calls that used a deprecated element, apart from `rollups`: an element call
 * (`element` set) goes only here, every other call only there.
 */
export const elementRollups = {
  versionary_usage_elements: ['element', 'version', 'endpoint', 'client_id'],
} as const;

export type RollupTable = keyof typeof rollups | keyof typeof elementRollups;

const keyColumns: Record<RollupTable, readonly string[]> = { ...rollups, ...elementRollups };

/**
 * Fold calls into the rows of the given rollup tables: one row per key, calls summed, first and last
 * seen, and the User-Agent of the latest call (null when that call sent none). Rows come sorted by key, so
 * concurrent writers take row locks in one order and cannot deadlock each other.
 */
export function foldCalls<T extends RollupTable>(
  records: readonly UsageCall[],
  tables: readonly T[],
): Record<T, Row[]> {
  const maps = tables.map(() => new Map<string, Row>());
  // Records outside, tables inside: a record's keys and User-Agent are worked out once, not once
  // per table (this runs for every call to a deprecated version).
  for (const r of records) {
    const keys: Record<string, string | number> = {
      minute: Math.floor(r.at / minuteMs) * minuteMs,
      day: Math.floor(r.at / dayMs) * dayMs,
      version: r.version,
      endpoint: r.endpoint,
      client_id: r.clientId,
      key_id: r.keyId ?? '',
      element: r.element ?? '',
    };
    const ua = r.userAgent ? r.userAgent.slice(0, maxUserAgent) : null;
    for (let t = 0; t < tables.length; t++) {
      const columns = keyColumns[tables[t]!];
      let id = String(keys[columns[0]!]);
      for (let c = 1; c < columns.length; c++) id += `\u0000${keys[columns[c]!]}`;
      const rows = maps[t]!;
      const row = rows.get(id);
      if (!row) {
        const fresh: Row = { calls: 1, first_seen: r.at, last_seen: r.at, user_agent: ua };
        for (const k of columns) fresh[k] = keys[k]!;
        rows.set(id, fresh);
        continue;
      }
      row.calls += 1;
      if (r.at < row.first_seen) row.first_seen = r.at;
      if (r.at >= row.last_seen) {
        row.last_seen = r.at;
        row.user_agent = ua;
      }
    }
  }
  return Object.fromEntries(tables.map((table, t) => [table, sortedByKey(maps[t]!)])) as Record<T, Row[]>;
}

/** A map's values in the order of their keys. */
export function sortedByKey<R>(rows: Map<string, R>): R[] {
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/**
 * Add rows to a rollup table (or an operation count table, whose rows have no first seen and no
 * User-Agent): `INSERT … ON CONFLICT (keys) DO UPDATE` adding the calls and widening first and
 * last seen. The same SQL runs on SQLite and PostgreSQL (CASE rather than MIN/LEAST, which differ
 * between the two).
 */
export async function upsertRollup(
  db: Kysely<Tables> | Transaction<Tables>,
  options: { table: string; rows: Array<Record<string, string | number | null>>; keys?: readonly string[] },
): Promise<void> {
  const { table, rows } = options;
  const keys = options.keys ?? keyColumns[table as RollupTable];
  const seen = rows.length > 0 && 'first_seen' in rows[0]!;
  // 500 rows of 9 values stays far below either database's parameter limit.
  for (let i = 0; i < rows.length; i += 500) {
    const old = (column: string) => sql.ref(`${table}.${column}`);
    const fresh = (column: string) => sql.ref(`excluded.${column}`);
    const calls = sql<number>`${old('calls')} + ${fresh('calls')}`;
    const lastSeen = sql<number>`CASE WHEN ${fresh('last_seen')} > ${old('last_seen')} THEN ${fresh('last_seen')} ELSE ${old('last_seen')} END`;
    await (db as unknown as Kysely<Record<string, Row>>)
      .insertInto(table)
      .values(rows.slice(i, i + 500) as Row[])
      .onConflict((oc) =>
        oc.columns([...keys]).doUpdateSet(
          seen
            ? {
                calls,
                first_seen: sql`CASE WHEN ${fresh('first_seen')} < ${old('first_seen')} THEN ${fresh('first_seen')} ELSE ${old('first_seen')} END`,
                last_seen: lastSeen,
                // SET sees the old row, so this compares against the old last_seen.
                user_agent: sql`CASE WHEN ${fresh('last_seen')} >= ${old('last_seen')} THEN ${fresh('user_agent')} ELSE ${old('user_agent')} END`,
              }
            : { calls, last_seen: lastSeen },
        ),
      )
      .execute();
  }
}
