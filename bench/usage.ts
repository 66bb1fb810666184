import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { openPostgresStorage } from '../src/storage/postgres/open-postgres-storage.ts';
import type { BenchReport } from './types.ts';

const url =
  process.env.VERSIONARY_BENCH_POSTGRES_URL ??
  process.env.VERSIONARY_TEST_POSTGRES_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const dayMs = 86_400_000;
const minutesPerDay = 1440;
/** The seeded shape: clients × endpoints × keys, over days of minutes. */
const shape = { clients: 200, endpoints: 10, keysPerClient: 2, days: 90, rowsPerMinute: 16 };
const RUNS = 9;

/**
 * Seed per-minute usage rollups worth about 10 million calls on PostgreSQL (generate_series, in
 * a throwaway schema), derive the coarser rollups as the service would, then time summary,
 * byClient and byDay: cold once, then the median of {@link RUNS} warm runs.
 *
 * @example
 * ```sh
 * npm run bench -- usage
 * ```
 */
export async function benchUsage(): Promise<BenchReport> {
  const schema = `vbench_usage_${randomBytes(4).toString('hex')}`;
  const storage = await openPostgresStorage({ url, schema, max: 4 });
  const { db } = storage;
  const end = Date.UTC(2026, 0, 1);
  const start = end - shape.days * dayMs;
  try {
    let t = performance.now();
    const rows = shape.days * minutesPerDay * shape.rowsPerMinute;
    const combosPerClient = shape.endpoints * shape.keysPerClient;
    const combos = shape.clients * combosPerClient;
    // Row i is minute m = i mod (days × 1440) and slot j = i div that. Its combination of client,
    // endpoint and key is c = (16m + j) × 7919 mod 4000: 7919 is prime to 4000, so the 16 slots of
    // a minute never collide, and over the minutes every combination occurs.
    await sql`INSERT INTO versionary_usage_minutes (minute, version, endpoint, client_id, key_id, calls, first_seen, last_seen, user_agent)
      SELECT ${start}::bigint + m * 60000, CASE WHEN j < 13 THEN 'v1' ELSE 'v2' END, 'GET /e' || ((c / ${shape.keysPerClient}) % ${shape.endpoints}),
        'cl_' || lpad((c / ${combosPerClient})::text, 16, '0'), 'key_' || lpad(((c / ${combosPerClient}) * ${shape.keysPerClient} + c % ${shape.keysPerClient})::text, 16, '0'),
        1 + (i % 9), ${start}::bigint + m * 60000 + (i % 60) * 100, ${start}::bigint + m * 60000 + 59000, 'sdk/' || (i % 5)
      FROM (SELECT i, m, j, ((m * ${shape.rowsPerMinute} + j) * 7919) % ${combos} AS c
        FROM (SELECT i, i % ${shape.days * minutesPerDay} AS m, i / ${shape.days * minutesPerDay} AS j FROM generate_series(0::bigint, ${rows - 1}::bigint) AS i) AS s) AS g`.execute(
      db,
    );
    const minutesMs = performance.now() - t;
    t = performance.now();
    await sql`INSERT INTO versionary_usage_days (day, version, endpoint, client_id, key_id, calls, first_seen, last_seen, user_agent)
      SELECT (minute / 86400000) * 86400000, version, endpoint, client_id, key_id, SUM(calls), MIN(first_seen), MAX(last_seen), MAX(user_agent)
      FROM versionary_usage_minutes GROUP BY 1, version, endpoint, client_id, key_id`.execute(db);
    await sql`INSERT INTO versionary_usage_client_days (day, version, client_id, calls, first_seen, last_seen)
      SELECT day, version, client_id, SUM(calls), MIN(first_seen), MAX(last_seen) FROM versionary_usage_days GROUP BY day, version, client_id`.execute(
      db,
    );
    await sql`INSERT INTO versionary_usage_totals (version, endpoint, client_id, key_id, calls, first_seen, last_seen, user_agent)
      SELECT version, endpoint, client_id, key_id, SUM(calls), MIN(first_seen), MAX(last_seen), MAX(user_agent) FROM versionary_usage_days GROUP BY version, endpoint, client_id, key_id`.execute(
      db,
    );
    await sql`ANALYZE`.execute(db);
    const derivedMs = performance.now() - t;
    const counts: Record<string, number> = {};
    for (const table of ['usage_minutes', 'usage_days', 'usage_client_days', 'usage_totals'] as const) {
      counts[table] = Number(
        (
          await db
            .selectFrom(`versionary_${table}` as const)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    }
    const totalCalls = Number(
      (
        await db
          .selectFrom('versionary_usage_totals')
          .select((eb) => eb.fn.sum<number>('calls').as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

    // A batch as the recorder writes it: 2,000 calls folded and upserted onto the seeded rows.
    const batch = Array.from({ length: 2000 }, (_, i) => ({
      version: 'v1',
      endpoint: `GET /e${i % shape.endpoints}`,
      clientId: `cl_${String(i % shape.clients).padStart(16, '0')}`,
      keyId: `key_${String((i % shape.clients) * 2).padStart(16, '0')}`,
      userAgent: 'sdk/9',
      at: end - 1000 + (i % 1000),
    }));
    const queries: Array<[string, () => Promise<unknown>]> = [
      ['insert: batch of 2,000 calls (upserts)', () => storage.usage.insert(batch, { keepRaw: false })],
      ['summary(v1)', () => storage.usage.summary('v1')],
      ['clientTotals: 90 days, v1', () => storage.usage.clientTotals({ since: start, version: 'v1' })],
      ['byClient: all time', () => storage.usage.byClient({ since: 0 })],
      [
        'byClient: lookback covering all data, v1',
        () => storage.usage.byClient({ since: start, until: end + dayMs, version: 'v1' }),
      ],
      [
        'byClient: last 90 days, v1',
        () => storage.usage.byClient({ since: end - 90 * dayMs + 3_600_000, until: end, version: 'v1' }),
      ],
      ['byClient: last 7 days', () => storage.usage.byClient({ since: end - 7 * dayMs + 3_600_000, until: end })],
      [
        'byClient: one client, 90 days',
        () =>
          storage.usage.byClient({ since: end - 90 * dayMs + 3_600_000, until: end, clientId: 'cl_0000000000000007' }),
      ],
      ['byClient: last hour', () => storage.usage.byClient({ since: end - 3_600_000, until: end })],
      ['byDay: 90 days, v1', () => storage.usage.byDay({ since: start, version: 'v1' })],
      ['byDay: 90 days per client', () => storage.usage.byDay({ since: start, perClient: true })],
      [
        'byDay: one client',
        () => storage.usage.byDay({ since: start, clientId: 'cl_0000000000000007', perClient: true }),
      ],
    ];
    const measured: BenchReport['rows'] = [];
    for (const [name, run] of queries) {
      let s = performance.now();
      const result = await run();
      const cold = performance.now() - s;
      const warm: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        s = performance.now();
        await run();
        warm.push(performance.now() - s);
      }
      warm.sort((a, b) => a - b);
      measured.push({
        query: name,
        rows: Array.isArray(result) ? result.length : 1,
        'cold ms': round(cold),
        [`median ms (${RUNS})`]: round(warm[Math.floor(RUNS / 2)]!),
        'max ms': round(warm[RUNS - 1]!),
      });
    }
    return {
      title: `usage on PostgreSQL: ${totalCalls.toLocaleString('en')} calls in ${Object.entries(counts)
        .map(([k, n]) => `${n.toLocaleString('en')} ${k}`)
        .join(
          ', ',
        )} (${shape.clients} clients × ${shape.endpoints} endpoints × ${shape.keysPerClient} keys, ${shape.days} days); seeded in ${round(minutesMs / 1000)} s + ${round(derivedMs / 1000)} s`,
      rows: measured,
      json: {
        shape,
        totalCalls,
        counts,
        seedSeconds: round(minutesMs / 1000),
        deriveSeconds: round(derivedMs / 1000),
        queries: measured,
      },
    };
  } finally {
    await storage.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    if (process.env.VERSIONARY_BENCH_KEEP) process.stderr.write(`kept schema ${schema}\n`);
    else await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
