import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { UsageWindow } from '../../kernel/ports/index.ts';
import type { Tables } from './tables.ts';

export const minuteMs = 60_000;
export const hourMs = 3_600_000;
export const dayMs = 86_400_000;

/** The conditions of the version and the client a usage read is narrowed to, when it is. */
export function filterSql(filters: UsageWindow): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [];
  if (filters.version !== undefined) conditions.push(sql`version = ${filters.version}`);
  if (filters.clientId !== undefined) conditions.push(sql`client_id = ${filters.clientId}`);
  return conditions;
}

interface Scan {
  table: string;
  keys: readonly string[];
  columns: RawBuilder<unknown>;
  conditions: RawBuilder<unknown>[];
  pageRows: number;
}

/**
 * Read the rows of a table that match `conditions` in pages of `pageRows`, in the order of its
 * primary key (`keys`, which the selected `columns` must include), handing each page to `onPage`
 * and taking a turn of the event loop after it. The SQLite driver is synchronous: one large read
 * would hold the loop, and every request, for as long as it runs; a page holds it for a few
 * milliseconds. On PostgreSQL the connection goes back to the pool between pages. With a
 * `window`, only the rows whose `time` column is in [from, to) are read (and that column is
 * selected too), in time slices of at most `sliceMs`.
 */
export async function scanPages<Row extends Record<string, unknown>>(
  db: Kysely<Tables>,
  options: Scan & { window?: { time: string; from: number; to: number; sliceMs: number } | undefined },
  onPage: (rows: Row[]) => void,
): Promise<void> {
  const { window } = options;
  if (!window) return scanSlice(db, options, onPage);
  const time = sql.ref(window.time);
  const columns = sql`${time}, ${options.columns}`;
  for (let start = window.from; start < window.to; start += window.sliceMs) {
    const slice = [sql`${time} >= ${start}`, sql`${time} < ${Math.min(window.to, start + window.sliceMs)}`];
    await scanSlice(db, { ...options, columns, conditions: [...slice, ...options.conditions] }, onPage);
  }
}

async function scanSlice<Row extends Record<string, unknown>>(
  db: Kysely<Tables>,
  options: Scan,
  onPage: (rows: Row[]) => void,
): Promise<void> {
  const keys = sql.join(options.keys.map((k) => sql.ref(k)));
  let after: Row | undefined;
  for (;;) {
    const where = after
      ? [...options.conditions, sql`(${keys}) > (${sql.join(options.keys.map((k) => after![k]))})`]
      : options.conditions;
    const { rows } = await sql<Row>`SELECT ${options.columns} FROM ${sql.table(options.table)}${
      where.length > 0 ? sql` WHERE ${sql.join(where, sql` AND `)}` : sql``
    } ORDER BY ${keys} LIMIT ${options.pageRows}`.execute(db);
    onPage(rows);
    await new Promise((resolve) => setImmediate(resolve));
    if (rows.length < options.pageRows) return;
    after = rows[rows.length - 1];
  }
}

/** A table read by time: its time column, and the span of one slice of a read. */
type Timed<T extends string> = { table: T; time: string; sliceMs: number };

/**
 * The parts of a window [from, to) a read scans: whole UTC days from the daily table between the
 * ragged edges from the finer one, or only the finer one when the window holds no whole day.
 */
export function dayParts<T extends string>({ from, to }: { from: number; to: number }, fine: Timed<T>, days: Timed<T>) {
  const daysFrom = Math.ceil(from / dayMs) * dayMs;
  const daysTo = Math.floor(to / dayMs) * dayMs;
  const part = ({ table, ...window }: Timed<T>, from: number, to: number) => ({
    table,
    window: { ...window, from, to },
  });
  if (daysTo <= daysFrom) return [part(fine, from, to)];
  return [part(fine, from, daysFrom), part(days, daysFrom, daysTo), part(fine, daysTo, to)];
}

/** The columns of usage reads that hold counts and instants. */
const numbers = new Set(['id', 'at', 'day', 'calls', 'clients', 'endpoints', 'first_seen', 'last_seen']);

/**
 * A usage row as the port's record: its columns in camel case, in the order selected, counts and
 * instants as numbers (both drivers may hand back bigints as strings).
 */
export function recordOf<T>(row: Record<string, unknown>): T {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row))
    record[column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = numbers.has(column)
      ? Number(value)
      : value;
  return record as T;
}

/** The records of an aggregate read ({@link recordOf}). */
export async function readRecords<T>(db: Kysely<Tables>, query: RawBuilder<unknown>): Promise<T[]> {
  const { rows } = await (query as RawBuilder<Record<string, unknown>>).execute(db);
  return rows.map((row) => recordOf<T>(row));
}

/** A key's sums in a paged read: its key columns in camel case, then its counts. */
export type Sum = Record<string, string | number> & { calls: number; lastSeen: number };

/**
 * Add the rows of a page into one sum per key (`keys`, columns): calls added, the earliest first
 * seen and the latest last seen kept, and with a `user_agent` column, the latest call's User-Agent
 * as `agent` ('' when that call sent none; of two rows as late, the greater, as SQL's MAX over both
 * picked before).
 */
export function addUp(sums: Map<string, Sum>, keys: readonly string[], rows: readonly Record<string, unknown>[]): void {
  for (const row of rows) {
    const id = keys.map((k) => row[k]).join('\u0000');
    // Both drivers may hand back bigints as strings.
    const calls = Number(row.calls);
    const lastSeen = Number(row.last_seen);
    const agent = (row.user_agent as string | null | undefined) ?? '';
    const sum = sums.get(id);
    if (!sum) {
      // Members in the port's order: keys, calls, first seen, last seen.
      const fresh = {
        ...recordOf<Record<string, string>>(Object.fromEntries(keys.map((k) => [k, row[k]]))),
        calls,
      } as Sum;
      if ('first_seen' in row) fresh.firstSeen = Number(row.first_seen);
      fresh.lastSeen = lastSeen;
      if ('user_agent' in row) fresh.agent = agent;
      sums.set(id, fresh);
      continue;
    }
    sum.calls += calls;
    if ('first_seen' in row && Number(row.first_seen) < (sum.firstSeen as number))
      sum.firstSeen = Number(row.first_seen);
    if (
      'user_agent' in row &&
      (lastSeen > sum.lastSeen || (lastSeen === sum.lastSeen && codePointOrder(agent, sum.agent as string) > 0))
    )
      sum.agent = agent;
    if (lastSeen > sum.lastSeen) sum.lastSeen = lastSeen;
  }
}

/** The sums in the order of their key fields, in code point order. */
export function sortedSums(sums: Map<string, Sum>, fields: readonly string[]): Sum[] {
  const order = (a: Sum, b: Sum) => {
    for (const field of fields) {
      const c = codePointOrder(a[field] as string, b[field] as string);
      if (c !== 0) return c;
    }
    return 0;
  };
  return [...sums.values()].sort(order);
}

/** Strings in code point order: SQLite's BINARY order, and PostgreSQL's under C collation. */
function codePointOrder(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit's place in code point order: surrogates (halves of code points past U+FFFF) after the rest of the BMP. */
function rank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}
