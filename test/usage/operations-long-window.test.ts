import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { createMigrationProvider, loopMigrationTables } from '../../src/storage/kysely/migrations/index.ts';
import { rawDb, type Place } from '../support/database-shape.ts';
import { sharedPostgresUrl, spawnService, throwawaySchema } from '../support/service-process.ts';
import { testDatabase } from '../support/test-postgres.ts';

// 50 clients × 10 operations × 60 days of hourly counts, inside the default 90-day retention: what
// `versionary diff --window 90d` reads. Four such reads at once must leave the service answering.
const hour = 3_600_000;
const day = 24 * hour;
const keys = 500;
const hours = 60 * 24;
/**
 * How long `/healthz` may wait, as a share of the time the four reads take: one read in a single
 * statement holds the event loop throughout (its probe waits for all of it), reads in steps let it
 * answer between them. A share rather than milliseconds, so that a loaded machine, slowing both,
 * does not fail it.
 */
const longestShare = 0.25;
const adminKey = `long-window-admin-${randomBytes(8).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'versionary-long-window-'));
const schema = throwawaySchema();
const place: Place =
  testDatabase === 'postgres'
    ? { kind: 'postgres', url: sharedPostgresUrl, schema: schema.name }
    : { kind: 'sqlite', path: join(dir, 'usage.db') };

after(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (place.kind === 'postgres') await schema.drop();
});

/**
 * A database as a release before the daily counts left it, with the hours written straight in
 * (one statement, seconds rather than minutes): the service migrates it when it starts.
 */
async function seed(lastHour: number): Promise<void> {
  const db = await rawDb(place);
  try {
    const migrator = new Migrator({
      db,
      provider: createMigrationProvider({ serial: place.kind === 'sqlite' ? 'integer' : 'serial' }),
      ...loopMigrationTables,
      ...(place.kind === 'postgres' ? { migrationTableSchema: place.schema } : {}),
    });
    assert.equal((await migrator.migrateTo('0010-change-approvals')).error, undefined);
    const first = lastHour - (hours - 1) * hour;
    await sql`WITH RECURSIVE n(i) AS (SELECT CAST(0 AS BIGINT) UNION ALL SELECT i + 1 FROM n WHERE i < ${sql.lit(keys * hours - 1)})
      INSERT INTO versionary_usage_operation_hours (hour, version, endpoint, client_id, calls, last_seen)
      SELECT CAST(${first} AS BIGINT) + (i / ${sql.lit(keys)}) * ${sql.lit(hour)}, 'v2', 'GET /op' || (i % 10), 'client-' || (100 + i / 10 % 50),
        2, CAST(${first} AS BIGINT) + (i / ${sql.lit(keys)}) * ${sql.lit(hour)} + 1000 + i % ${sql.lit(keys)}
      FROM n`.execute(db);
  } finally {
    await db.destroy();
  }
}

test(
  `four 90-day reads of the operation counts leave /healthz answering (${testDatabase})`,
  { timeout: 300_000 },
  async (t) => {
    const now = Date.now();
    const lastHour = Math.floor(now / hour) * hour - hour;
    await seed(lastHour);
    const service = await spawnService({
      env: {
        DATABASE_URL: place.kind === 'sqlite' ? `sqlite:${place.path}` : place.url,
        ...(place.kind === 'postgres' ? { VERSIONARY_DB_SCHEMA: place.schema } : {}),
        VERSIONARY_ADMIN_KEY: adminKey,
        LOG_LEVEL: 'warn',
      },
      timeoutMs: 120_000,
    });
    try {
      const since = new Date(now - 90 * day).toISOString();
      const started = performance.now();
      const reads = Array.from({ length: 4 }, () =>
        fetch(`${service.base}/admin/v1/usage/operations?since=${since}`, {
          headers: { authorization: `Bearer ${adminKey}` },
        }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { data: Array<Record<string, unknown>> },
        })),
      );
      let done = false;
      let took = 0;
      const all = Promise.all(reads).finally(() => {
        done = true;
        took = performance.now() - started;
      });
      const probes: number[] = [];
      while (!done) {
        const sent = performance.now();
        assert.equal((await fetch(`${service.base}/healthz`)).status, 200);
        probes.push(performance.now() - sent);
        await new Promise((r) => setTimeout(r, 5));
      }
      for (const { status, body } of await all) {
        assert.equal(status, 200, JSON.stringify(body).slice(0, 500));
        // Every (operation, client) with all its hours: the same answer the hourly rows give.
        assert.equal(body.data.length, keys);
        for (const row of body.data) {
          const k =
            Number(String(row.endpoint).slice('GET /op'.length)) + 10 * (Number(String(row.clientId).slice(7)) - 100);
          assert.deepEqual(
            [row.version, row.calls, row.lastSeen],
            ['v2', 2 * hours, new Date(lastHour + 1000 + k).toISOString()],
            JSON.stringify(row),
          );
        }
      }
      const longest = Math.max(...probes);
      t.diagnostic(`reads ${Math.round(took)} ms; /healthz ${probes.length} probes, longest ${Math.round(longest)} ms`);
      assert.ok(
        probes.length >= 4 && longest < longestShare * took,
        `/healthz answered ${probes.length} times in the ${Math.round(took)} ms the reads took, once after ${Math.round(longest)} ms`,
      );
    } finally {
      await service.stop();
    }
  },
);
