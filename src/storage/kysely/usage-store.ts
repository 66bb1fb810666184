import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ClientUsageRow, DailyUsageRow, UsageStore } from '../../service/ports/index.ts';
import type { Tables } from './tables.ts';
import { readElementCalls, readElementUsage } from './usage-element-reads.ts';
import { operationHoursStore } from './usage-operation-hours.ts';
import { operationPageRows } from './usage-operation-reads.ts';
import {
  dayMs,
  elementRollups,
  foldCalls,
  rollups,
  splitWindow,
  upsertRollup,
  type RollupTable,
} from './usage-rollups.ts';

interface Filters {
  version?: string;
  clientId?: string;
}

/**
 * Usage over Kysely. Each batch is folded in memory and upserted into the per-minute rollups and
 * the coarser ones beside them (per day, per client and day, totals) in one transaction; raw
 * events are kept only when asked, for the calls listing, and pruned by age. Reads pick the
 * coarsest table that answers exactly, so they stay small at any volume.
 */
export function createUsageStore(
  db: Kysely<Tables>,
  options: {
    /** Rows per step of the long operation reads; {@link operationPageRows} has each database's. */
    operationPageRows?: number;
  } = {},
): UsageStore {
  // Full chunks reuse one compiled 200-row INSERT: building that query tree per batch cost more
  // than SQLite's insert itself. The remainder goes through the builder.
  const chunk = 200;
  const fullChunk = db
    .insertInto('versionary_usage_calls')
    .values(Array.from({ length: chunk }, () => ({ version: '', endpoint: '', client_id: '', at: 0 })))
    .compile();
  return {
    async insert(records, options = { keepRaw: true }) {
      if (records.length === 0) return;
      // An element call counts only in its own rollup: the version and endpoint reads, and the raw
      // calls listing (which has no element column), see only the calls that are not one.
      const element = records.filter((r) => r.element !== undefined);
      if (element.length > 0) records = records.filter((r) => r.element === undefined);
      const folded = {
        ...foldCalls(records, Object.keys(rollups) as RollupTable[]),
        ...foldCalls(element, Object.keys(elementRollups) as RollupTable[]),
      };
      await db.transaction().execute(async (tx) => {
        for (const table of Object.keys(folded) as RollupTable[])
          if (folded[table].length > 0) await upsertRollup(tx, { table, rows: folded[table] });
        if (!options.keepRaw) return;
        for (let i = 0; i < records.length; i += chunk) {
          const part = records.slice(i, i + chunk);
          if (part.length === chunk) {
            const parameters: unknown[] = [];
            for (const r of part) parameters.push(r.version, r.endpoint, r.clientId, r.at);
            await tx.executeQuery({ ...fullChunk, parameters });
          } else {
            await tx
              .insertInto('versionary_usage_calls')
              .values(part.map((r) => ({ version: r.version, endpoint: r.endpoint, client_id: r.clientId, at: r.at })))
              .execute();
          }
        }
      });
    },
    async summary(version) {
      const row = await db
        .selectFrom('versionary_usage_totals')
        .where('version', '=', version)
        .select((eb) => [
          eb.fn.sum<number>('calls').as('calls'),
          eb.fn.count<number>('client_id').distinct().as('clients'),
          eb.fn.count<number>('endpoint').distinct().as('endpoints'),
        ])
        .executeTakeFirstOrThrow();
      return { calls: Number(row.calls ?? 0), clients: Number(row.clients), endpoints: Number(row.endpoints) };
    },
    async byClient(options) {
      // A window that holds every recorded call (a lookback longer than the data) is the totals: exact, and small.
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
      if (span?.first === null || span?.first === undefined) return [];
      const coversAll =
        Math.floor(options.since / 60_000) * 60_000 <= Number(span.first) &&
        (options.until === undefined || Math.floor(Number(span.last) / 60_000) * 60_000 < options.until);
      const parts = windowParts(coversAll ? { ...options, since: 0, until: undefined } : options);
      if (parts.length === 0) return [];
      const { rows } =
        await sql<RawClientRow>`SELECT client_id, version, endpoint, key_id, SUM(calls) AS calls, MIN(first_seen) AS first_seen,
          MAX(last_seen) AS last_seen, MAX(${latestAgent}) AS agent
        FROM (${sql.join(parts, sql` UNION ALL `)}) AS u
        GROUP BY client_id, version, endpoint, key_id ORDER BY client_id, version, endpoint, key_id`.execute(db);
      return rows.map(toClientRow);
    },
    async clientTotals(options) {
      const conditions = [sql`day >= ${Math.floor(options.since / dayMs) * dayMs}`, ...filterSql(options)];
      if (options.until !== undefined) conditions.push(sql`day < ${options.until}`);
      const { rows } = await sql<{
        client_id: string;
        version: string;
        calls: number | string;
        first_seen: number | string;
        last_seen: number | string;
      }>`
        SELECT client_id, version, SUM(calls) AS calls, MIN(first_seen) AS first_seen, MAX(last_seen) AS last_seen FROM versionary_usage_client_days
        WHERE ${sql.join(conditions, sql` AND `)} GROUP BY client_id, version ORDER BY client_id, version`.execute(db);
      return rows.map((r) => ({
        clientId: r.client_id,
        version: r.version,
        calls: Number(r.calls),
        firstSeen: Number(r.first_seen),
        lastSeen: Number(r.last_seen),
      }));
    },
    async byDay(options) {
      const perClient = options.perClient === true;
      const conditions = [sql`day >= ${Math.floor(options.since / dayMs) * dayMs}`, ...filterSql(options)];
      if (options.until !== undefined) conditions.push(sql`day < ${options.until}`);
      const groups = perClient ? sql`day, version, client_id` : sql`day, version`;
      const { rows } = await sql<{
        day: number | string;
        version: string;
        client_id?: string;
        calls: number | string;
        clients: number | string;
      }>`
        SELECT ${groups}, SUM(calls) AS calls, COUNT(DISTINCT client_id) AS clients FROM versionary_usage_client_days
        WHERE ${sql.join(conditions, sql` AND `)} GROUP BY ${groups} ORDER BY ${groups}`.execute(db);
      return rows.map((r): DailyUsageRow => ({
        day: Number(r.day),
        version: r.version,
        ...(perClient ? { clientId: r.client_id! } : {}),
        calls: Number(r.calls),
        clients: Number(r.clients),
      }));
    },
    elementUsage: (options = {}) => readElementUsage(db, options),
    elementCalls: (options = {}) => readElementCalls(db, options),
    async list({ version, clientId, limit, afterId }) {
      let query = db
        .selectFrom('versionary_usage_calls')
        .selectAll()
        .where('version', '=', version)
        .where('id', '>', afterId);
      if (clientId !== undefined) query = query.where('client_id', '=', clientId);
      const rows = await query
        .orderBy('id')
        .limit(limit + 1)
        .execute();
      const items = rows.slice(0, limit).map((r) => ({
        id: Number(r.id),
        version: r.version,
        endpoint: r.endpoint,
        clientId: r.client_id,
        at: Number(r.at),
      }));
      return { items, nextAfter: rows.length > limit ? items[items.length - 1]!.id : null };
    },
    async pruneRaw({ before }) {
      const result = await db.deleteFrom('versionary_usage_calls').where('at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    ...operationHoursStore(db, { pageRows: options.operationPageRows ?? operationPageRows.sqlite }),
  };
}

interface RawClientRow {
  client_id: string;
  version: string;
  endpoint: string;
  key_id: string;
  calls: number | string;
  first_seen: number | string;
  last_seen: number | string;
  agent: string | null;
}

// The latest call's User-Agent in one aggregate on both databases: last_seen as fixed-width text
// (offset to 14 digits) before the agent, so MAX picks the latest row; '' when it sent none.
const latestAgent = sql`CAST(last_seen + 10000000000000 AS TEXT) || ' ' || COALESCE(user_agent, '')`;
const columns = sql`client_id, version, endpoint, key_id, calls, first_seen, last_seen, user_agent`;

function filterSql(filters: Filters): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [];
  if (filters.version !== undefined) conditions.push(sql`version = ${filters.version}`);
  if (filters.clientId !== undefined) conditions.push(sql`client_id = ${filters.clientId}`);
  return conditions;
}

/** The selects whose union is the window: totals for all time, else minutes at the edges and days between. */
function windowParts(options: { since: number; until?: number | undefined } & Filters): RawBuilder<unknown>[] {
  const filters = filterSql(options);
  const select = (table: string, conditions: RawBuilder<unknown>[]) => {
    const where = [...conditions, ...filters];
    return sql`SELECT ${columns} FROM ${sql.table(table)}${where.length > 0 ? sql` WHERE ${sql.join(where, sql` AND `)}` : sql``}`;
  };
  if (options.since <= 0 && options.until === undefined) return [select('versionary_usage_totals', [])];
  if (options.until !== undefined && options.until <= options.since) return [];
  const w = splitWindow(options);
  const parts: RawBuilder<unknown>[] = [];
  if (w.daysFrom > w.since)
    parts.push(select('versionary_usage_minutes', [sql`minute >= ${w.since}`, sql`minute < ${w.daysFrom}`]));
  if (w.daysTo > w.daysFrom)
    parts.push(
      select('versionary_usage_days', [
        sql`day >= ${w.daysFrom}`,
        ...(w.until === undefined ? [] : [sql`day < ${w.daysTo}`]),
      ]),
    );
  if (w.until !== undefined && w.until > w.daysTo)
    parts.push(select('versionary_usage_minutes', [sql`minute >= ${w.daysTo}`, sql`minute < ${w.until}`]));
  return parts;
}

function toClientRow(r: RawClientRow): ClientUsageRow {
  const agent = r.agent === null ? '' : r.agent.slice(r.agent.indexOf(' ') + 1);
  return {
    clientId: r.client_id,
    version: r.version,
    endpoint: r.endpoint,
    ...(r.key_id !== '' ? { keyId: r.key_id } : {}),
    calls: Number(r.calls),
    firstSeen: Number(r.first_seen),
    lastSeen: Number(r.last_seen),
    ...(agent ? { userAgent: agent } : {}),
  };
}
