import { sql, type CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { UsageCall, UsageStore, UsageWindow } from '../../kernel/ports/index.ts';
import { matching, readPage } from './mapping.ts';
import type { Tables } from './tables.ts';
import { readByClient, readCalledBefore } from './usage-client-reads.ts';
import { operationHoursStore, operationPageRows } from './usage-operations.ts';
import { dayMs, filterSql, readRecords, recordOf } from './usage-paged-scan.ts';
import { elementRollups, foldCalls, rollups, upsertRollup, type RollupTable } from './usage-rollups.ts';

/**
 * Usage over Kysely. Each batch is folded in memory and upserted into the per-minute rollups and
 * the coarser ones beside them (per day, per client and day, totals) in one transaction; raw
 * events are kept only when asked, for the calls listing, and pruned by age. Reads pick the
 * coarsest table that answers exactly, so they stay small at any volume.
 */
export function createUsageStore(
  db: Kysely<Tables>,
  options: {
    /** Rows per step of the long reads (operations, by client); {@link operationPageRows} has each database's. */
    operationPageRows?: number;
  } = {},
): UsageStore {
  const pageRows = options.operationPageRows ?? operationPageRows.sqlite;
  const rawInsert = rawInsertOf(db);
  return {
    async insert(records, options = { keepRaw: true }) {
      if (records.length === 0) return;
      await db.transaction().execute((tx) => writeUsageCalls(tx, records, { keepRaw: options.keepRaw, rawInsert }));
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
    byClient: (options) => readByClient(db, options, pageRows),
    clientTotals: (options) =>
      readRecords(
        db,
        sql`SELECT client_id, version, SUM(calls) AS calls, MIN(first_seen) AS first_seen, MAX(last_seen) AS last_seen FROM versionary_usage_client_days
        WHERE ${daysWhere(options)} GROUP BY client_id, version ORDER BY client_id, version`,
      ),
    byDay(options) {
      const groups = options.perClient === true ? sql`day, version, client_id` : sql`day, version`;
      return readRecords(
        db,
        sql`SELECT ${groups}, SUM(calls) AS calls, COUNT(DISTINCT client_id) AS clients FROM versionary_usage_client_days
        WHERE ${daysWhere(options)} GROUP BY ${groups} ORDER BY ${groups}`,
      );
    },
    // Element usage per (version, element), of one client when asked: the management listing and dashboards.
    elementUsage: (options = {}) =>
      readRecords(
        db,
        sql`SELECT version, element, SUM(calls) AS calls, COUNT(DISTINCT client_id) AS clients,
      COUNT(DISTINCT endpoint) AS endpoints, MAX(last_seen) AS last_seen
    FROM versionary_usage_elements${clientFilter(options.clientId)} GROUP BY version, element ORDER BY version, element`,
      ),
    // Element calls per (client, element, version, endpoint): a client's own evidence, for its dashboard and notices.
    elementCalls: (options = {}) =>
      readRecords(
        db,
        sql`SELECT client_id, element, version, endpoint, calls, first_seen, last_seen
    FROM versionary_usage_elements${clientFilter(options.clientId)} ORDER BY client_id, element, version, endpoint`,
      ),
    list({ version, clientId, limit, afterId }) {
      const calls = db.selectFrom('versionary_usage_calls').select(['id', 'version', 'endpoint', 'client_id', 'at']);
      const query = matching(calls, { version, client_id: clientId }).where('id', '>', afterId);
      return readPage(query, limit, recordOf<UsageCall & { id: number }>);
    },
    async pruneRaw({ before }) {
      const result = await db.deleteFrom('versionary_usage_calls').where('at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    calledBefore: (options) => readCalledBefore(db, options),
    ...operationHoursStore(db, { pageRows }),
  };
}

/** Raw calls per INSERT. */
const chunk = 200;

/**
 * The raw calls' INSERT of `rows` rows, compiled once per size and reused: building that query
 * tree per batch cost more than SQLite's insert itself (a batch's last chunk has any size up to
 * {@link chunk}, so up to that many are kept, a few kilobytes each).
 */
export function rawInsertOf(db: Kysely<Tables>): (rows: number) => CompiledQuery {
  const compiled = new Map<number, CompiledQuery>();
  return (rows) => {
    let query = compiled.get(rows);
    if (!query) {
      query = db
        .insertInto('versionary_usage_calls')
        .values(Array.from({ length: rows }, () => ({ version: '', endpoint: '', client_id: '', at: 0 })))
        .compile();
      compiled.set(rows, query);
    }
    return query;
  };
}

/**
 * Write usage calls inside the caller's transaction: folded into the rollups (element calls into
 * their own), and kept raw when asked. The usage store's `insert` runs it in a transaction of its
 * own; the usage-log store in the one that also moves the log's offset.
 */
export async function writeUsageCalls(
  tx: Transaction<Tables>,
  records: readonly UsageCall[],
  options: { keepRaw: boolean; rawInsert: (rows: number) => CompiledQuery },
): Promise<void> {
  // An element call counts only in its own rollup: the version and endpoint reads, and the raw
  // calls listing (which has no element column), see only the calls that are not one.
  const element = records.filter((r) => r.element !== undefined);
  const plain = element.length > 0 ? records.filter((r) => r.element === undefined) : records;
  const folded = {
    ...foldCalls(plain, Object.keys(rollups) as RollupTable[]),
    ...foldCalls(element, Object.keys(elementRollups) as RollupTable[]),
  };
  for (const table of Object.keys(folded) as RollupTable[])
    if (folded[table].length > 0) await upsertRollup(tx, { table, rows: folded[table] });
  if (!options.keepRaw) return;
  for (let i = 0; i < plain.length; i += chunk) {
    const part = plain.slice(i, i + chunk);
    const parameters: unknown[] = [];
    for (const r of part) parameters.push(r.version, r.endpoint, r.clientId, r.at);
    await tx.executeQuery({ ...options.rawInsert(part.length), parameters });
  }
}

/** The client-days rows of a window: from the UTC day of `since`, before `until`. */
function daysWhere(options: UsageWindow) {
  const conditions = [sql`day >= ${Math.floor(options.since / dayMs) * dayMs}`, ...filterSql(options)];
  if (options.until !== undefined) conditions.push(sql`day < ${options.until}`);
  return sql.join(conditions, sql` AND `);
}

function clientFilter(clientId: string | undefined) {
  return clientId === undefined ? sql`` : sql` WHERE client_id = ${clientId}`;
}
