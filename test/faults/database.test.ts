import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startFreezingProxy, startOwnPostgres, type OwnPostgres } from '../support/own-servers.ts';
import { eventually, spawnService } from '../support/service-process.ts';

// Faults against a PostgreSQL of the test's own, stopped and started by pid: never the machine's.
const adminKey = `faults-admin-${randomBytes(4).toString('hex')}`;
const admin = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
};

describe('database faults', { timeout: 300_000 }, () => {
  let db: OwnPostgres;
  const dir = mkdtempSync(join(tmpdir(), 'versionary-faults-'));
  const config = join(dir, 'config.json');
  before(async () => {
    writeFileSync(config, JSON.stringify({ rateLimit: { max: 1_000_000, windowSeconds: 60 } }));
    db = await startOwnPostgres();
  });
  after(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const envFor = (url: string, schema: string) => ({
    DATABASE_URL: url,
    VERSIONARY_DB_SCHEMA: schema,
    VERSIONARY_ADMIN_KEY: adminKey,
    VERSIONARY_CONFIG: config,
    VERSIONARY_DB_CONNECT_TIMEOUT_MS: '1000',
    VERSIONARY_DB_STATEMENT_TIMEOUT_MS: '1000',
  });

  it(
    'database down: 503 problems with Retry-After, /readyz fails, the process lives, and it all comes back by itself',
    { timeout: 90_000 },
    async (t) => {
      const service = await spawnService({ env: envFor(db.url, 'down') });
      try {
        const acknowledged: number[] = [];
        let deprecatedServed = 0;
        for (let i = 0; i < 5; i++) {
          const res = await fetch(`${service.base}/api/v2/users`, {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ name: `before ${i}` }),
          });
          assert.equal(res.status, 201);
          acknowledged.push(((await res.json()) as { id: number }).id);
        }
        // Deprecated calls whose usage records are still buffered when the database goes.
        for (let i = 0; i < 20; i++) {
          if ((await fetch(`${service.base}/api/v1/users`, { headers: admin })).headers.get('deprecation'))
            deprecatedServed++;
        }
        const feedHealthy = async () =>
          /versionary_change_feed_healthy\{transport="postgres"\} 1/.test(
            await (await fetch(`${service.base}/metrics`, { headers: admin })).text(),
          );
        assert.equal(await feedHealthy(), true);
        await db.stop();
        for (let i = 0; i < 5; i++) {
          const { value: res, ms } = await timed(() =>
            fetch(`${service.base}/api/v2/users`, {
              method: 'POST',
              headers: admin,
              body: JSON.stringify({ name: `during ${i}` }),
            }),
          );
          assert.equal(res.status, 503);
          const problem = (await res.json()) as { code: string; requestId: string };
          assert.equal(problem.code, 'STORAGE_UNAVAILABLE');
          assert.ok(problem.requestId);
          assert.ok(Number(res.headers.get('retry-after')) > 0);
          assert.ok(ms < 5000, `answered after ${ms} ms`);
          if (i === 0) t.diagnostic(`first write with the database down answered 503 after ${ms} ms`);
        }
        // A deprecated call answered 503 is still a call to count.
        const refused = await fetch(`${service.base}/api/v1/users`, { headers: admin });
        assert.equal(refused.status, 503);
        if (refused.headers.get('deprecation')) deprecatedServed++;
        await eventually(async () => (await fetch(`${service.base}/readyz`)).status === 503, 5000);
        assert.equal((await fetch(`${service.base}/livez`)).status, 200);
        assert.equal(service.child.exitCode, null, 'the process survives');
        await eventually(async () => !(await feedHealthy()), 10_000);

        await db.start();
        const back = await eventually(
          async () => (await fetch(`${service.base}/api/v2/users`, { headers: admin })).status === 200,
          20_000,
        );
        t.diagnostic(`service resumed ${back} ms after the database returned`);
        assert.ok(back <= 5000, `service resumed ${back} ms after the database returned`);
        await eventually(async () => (await fetch(`${service.base}/readyz`)).status === 200, 5000);
        // The LISTEN connection is back too (it reconnects with backoff capped at 5 s).
        await eventually(feedHealthy, 10_000);
        // Nothing acknowledged is lost; nothing refused was written.
        const users = (await (await fetch(`${service.base}/api/v2/users?limit=100`, { headers: admin })).json()) as {
          data: Array<{ id: number; name: string }>;
        };
        assert.deepEqual(
          users.data.map((u) => u.id).sort((a, b) => a - b),
          acknowledged,
        );
        // The usage buffered across the outage is written once the database is back.
        const usage = (await (await fetch(`${service.base}/admin/v1/versions/v1`, { headers: admin })).json()) as {
          usage: { calls: number };
        };
        assert.equal(usage.usage.calls, deprecatedServed);
        assert.doesNotMatch(service.output(), /Unhandled|uncaught/i);
      } finally {
        await service.stop();
      }
    },
  );

  it('terminated idle connections do not kill the process', { timeout: 90_000 }, async () => {
    const service = await spawnService({ env: envFor(db.url, 'terminate') });
    try {
      assert.equal((await fetch(`${service.base}/api/v2/users`, { headers: admin })).status, 200);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend') t",
      );
      await client.end();
      assert.ok(rows[0].n > 0);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(service.child.exitCode, null);
      await eventually(
        async () => (await fetch(`${service.base}/api/v2/users`, { headers: admin })).status === 200,
        5000,
      );
    } finally {
      await service.stop();
    }
  });

  it(
    'a frozen database gives bounded 503s, not a pile-up, and the service recovers when it thaws',
    { timeout: 90_000 },
    async (t) => {
      const proxy = await startFreezingProxy(db.port);
      const service = await spawnService({
        env: envFor(`postgres://postgres@127.0.0.1:${proxy.port}/postgres`, 'frozen'),
      });
      try {
        assert.equal((await fetch(`${service.base}/api/v2/users`, { headers: admin })).status, 200);
        proxy.freeze();
        const { value: statuses, ms } = await timed(() =>
          Promise.all(
            Array.from({ length: 30 }, () =>
              fetch(`${service.base}/api/v2/users`, { headers: admin }).then((r) => r.status),
            ),
          ),
        );
        assert.deepEqual([...new Set(statuses)], [503]);
        t.diagnostic(`30 concurrent requests on a frozen database: all 503 in ${ms} ms`);
        assert.ok(ms < 15_000, `30 requests answered in ${ms} ms`);
        proxy.thaw();
        const back = await eventually(
          async () => (await fetch(`${service.base}/api/v2/users`, { headers: admin })).status === 200,
          20_000,
        );
        t.diagnostic(`resumed ${back} ms after the thaw`);
        assert.ok(back <= 5000, `resumed ${back} ms after the thaw`);
      } finally {
        await service.stop();
        await proxy.close();
      }
    },
  );

  it(
    'starting while the database is down: alive, not ready, 503 problems; ready once it comes',
    { timeout: 90_000 },
    async (t) => {
      await db.stop();
      const service = await spawnService({ env: envFor(db.url, 'late'), waitReady: false });
      try {
        assert.equal((await fetch(`${service.base}/livez`)).status, 200);
        const ready = await fetch(`${service.base}/readyz`);
        assert.equal(ready.status, 503);
        const res = await fetch(`${service.base}/api/v2/users`, { headers: admin });
        assert.equal(res.status, 503);
        assert.equal(((await res.json()) as { code: string }).code, 'STORAGE_UNAVAILABLE');
        assert.ok(res.headers.get('retry-after'));
        await new Promise((r) => setTimeout(r, 1500));
        assert.equal(service.child.exitCode, null, 'still retrying, not exited');
        await db.start();
        const ms = await eventually(async () => (await fetch(`${service.base}/readyz`)).status === 200, 20_000);
        t.diagnostic(`ready ${ms} ms after the database came`);
        assert.ok(ms <= 7000, `ready ${ms} ms after the database came`);
        assert.equal((await fetch(`${service.base}/api/v2/users`, { headers: admin })).status, 200);
        assert.match(service.output(), /database unreachable; retrying/);
      } finally {
        await service.stop();
        await db.start().catch(() => {});
      }
    },
  );
});
