import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  eventually,
  sharedPostgresUrl,
  sharedRedisUrl,
  spawnService,
  throwawaySchema,
  type ServiceProcess,
} from '../support/service-process.ts';

// Three real service processes on one PostgreSQL schema and one Redis prefix, as behind a load
// balancer. The reconcile runs once a minute here, so anything seen within a second came through
// the change feed.
const adminKey = `multi-instance-admin-${randomBytes(4).toString('hex')}`;
const admin = { authorization: `Bearer ${adminKey}` };
const readLimit = 12;

describe('three instances on one PostgreSQL and one Redis', { timeout: 240_000 }, () => {
  const schema = throwawaySchema();
  const prefix = `vtest:${randomBytes(6).toString('hex')}:`;
  const dir = mkdtempSync(join(tmpdir(), 'versionary-multi-'));
  let instances: ServiceProcess[] = [];
  let env: Record<string, string> = {};
  before(async () => {
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ rateLimit: { max: 100_000, windowSeconds: 60, roles: { read: { max: readLimit } } } }),
    );
    env = {
      DATABASE_URL: sharedPostgresUrl,
      VERSIONARY_DB_SCHEMA: schema.name,
      VERSIONARY_REDIS_URL: sharedRedisUrl,
      VERSIONARY_REDIS_PREFIX: prefix,
      VERSIONARY_ADMIN_KEY: adminKey,
      VERSIONARY_CONFIG: config,
      VERSIONARY_RECONCILE_MS: '60000',
    };
    // Started together: they meet an empty schema at once and must migrate it once.
    instances = await Promise.all([0, 1, 2].map(() => spawnService({ env })));
  });
  after(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await schema.drop();
    const redis = new Redis(sharedRedisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    rmSync(dir, { recursive: true, force: true });
  });

  const createKey = async (on: ServiceProcess, roles: string[]) => {
    const res = await fetch(`${on.base}/admin/v1/api-keys`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'multi', roles }),
    });
    assert.equal(res.status, 201);
    return (await res.json()) as { id: string; key: string };
  };

  it('a key created on one instance works on the others', async () => {
    const { key } = await createKey(instances[0]!, ['read', 'write']);
    for (const other of instances.slice(1)) {
      assert.equal(
        (await fetch(`${other.base}/api/v2/users`, { headers: { authorization: `Bearer ${key}` } })).status,
        200,
      );
    }
  });

  it('a key revoked on one instance is refused by the others within 1 s', async (t) => {
    const { id, key } = await createKey(instances[0]!, ['read']);
    const auth = { authorization: `Bearer ${key}` };
    for (const other of instances.slice(1))
      assert.equal((await fetch(`${other.base}/api/v2/users`, { headers: auth })).status, 200);
    const revoked = await fetch(`${instances[0]!.base}/admin/v1/api-keys/${id}`, { method: 'DELETE', headers: admin });
    assert.ok(revoked.ok);
    const waits = await Promise.all(
      instances
        .slice(1)
        .map((other) =>
          eventually(async () => (await fetch(`${other.base}/api/v2/users`, { headers: auth })).status === 401, 10_000),
        ),
    );
    t.diagnostic(`refused on the others after ${waits.join(', ')} ms`);
    for (const ms of waits) assert.ok(ms <= 1000, `refused after ${ms} ms`);
  });

  it('deprecating an endpoint on one instance shows the Deprecation header on the others within 1 s', async (t) => {
    for (const other of instances)
      assert.equal((await fetch(`${other.base}/api/v2/users`, { headers: admin })).headers.get('deprecation'), null);
    const res = await fetch(`${instances[1]!.base}/admin/v1/deprecations`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 'v2', method: 'GET', path: '/users' }),
    });
    assert.equal(res.status, 201);
    const waits = await Promise.all(
      [instances[0]!, instances[2]!].map((other) =>
        eventually(
          async () =>
            (await fetch(`${other.base}/api/v2/users`, { headers: admin })).headers.get('deprecation') !== null,
          10_000,
        ),
      ),
    );
    t.diagnostic(`Deprecation on the others after ${waits.join(', ')} ms`);
    for (const ms of waits) assert.ok(ms <= 1000, `header after ${ms} ms`);
  });

  it("scheduling v1 again by the spec's rule on one instance shows Sunset = now + 210 days on another", async (t) => {
    const day = 86_400_000;
    const put = (on: ServiceProcess, body: object) =>
      fetch(`${on.base}/admin/v1/versions/v1/deprecation`, {
        method: 'PUT',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // v1 as the issue met it: deprecated 170 days ago, its sunset 10 days away.
    const backdated = await put(instances[0]!, {
      deprecatedAt: new Date(Date.now() - 170 * day).toISOString(),
      sunsetAt: new Date(Date.now() + 10 * day).toISOString(),
      reason: 'critical-fix',
    });
    assert.equal(backdated.status, 200, await backdated.text());
    const before = Date.now();
    const res = await put(instances[0]!, { noticeMonths: 7 });
    const body = await res.text();
    assert.equal(res.status, 200, body);
    const after = Date.now();
    const { deprecatedAt, sunsetAt } = JSON.parse(body) as { deprecatedAt: string; sunsetAt: string };
    // Whole seconds on the wire: allow the second the instant was cut to.
    assert.ok(Date.parse(deprecatedAt) >= before - 1000 && Date.parse(deprecatedAt) <= after, deprecatedAt);
    const expected = Date.parse(deprecatedAt) + 210 * day;
    assert.equal(Date.parse(sunsetAt), expected);
    const seen = await eventually(async () => {
      const sunset = (await fetch(`${instances[1]!.base}/api/v1/users`, { headers: admin })).headers.get('sunset');
      return sunset !== null && Date.parse(sunset) === expected;
    }, 10_000);
    t.diagnostic(`the other instance shows the new Sunset after ${seen} ms`);
  });

  it('the rate limit holds across instances: together they admit the limit, not three times it', async () => {
    const { key } = await createKey(instances[2]!, ['read']);
    const statuses: number[] = [];
    for (let i = 0; i < readLimit * 2; i++) {
      const on = instances[i % 3]!;
      statuses.push((await fetch(`${on.base}/api/v2/users`, { headers: { authorization: `Bearer ${key}` } })).status);
    }
    assert.equal(statuses.filter((s) => s === 200).length, readLimit);
    assert.equal(statuses.filter((s) => s === 429).length, readLimit);
  });

  it('the usage summary counts every call exactly once, even from an instance stopped right after serving', async () => {
    // Earlier tests called v1 on the other instances, whose buffers are written each second (a read
    // flushes only its own instance's): count from a settled total (two reads further apart than
    // that interval agree), not from one taken between two instances' writes.
    let before = await usageCalls(instances[0]!);
    for (let settled = false; !settled;) {
      await new Promise((r) => setTimeout(r, 1500));
      const now = await usageCalls(instances[0]!);
      settled = now === before;
      before = now;
    }
    let served = 0;
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${instances[i % 3]!.base}/api/v1/users`, { headers: admin });
      assert.equal(res.status, 200);
      assert.ok(res.headers.get('deprecation'));
      served++;
    }
    // The third instance has its last calls still buffered: SIGTERM must flush them.
    const stopped = await instances[2]!.stop();
    assert.equal(stopped.code, 0);
    // The running instances write their buffers each second: wait for the count to settle, then
    // check it stays put past another interval (nothing counted twice).
    await eventually(async () => (await usageCalls(instances[0]!)) - before >= served, 10_000).catch(() => {});
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await usageCalls(instances[0]!)) - before, served);
    assert.equal((await usageCalls(instances[1]!)) - before, served);
    // A replacement takes the stopped instance's place, as an orchestrator would start one.
    instances[2] = await spawnService({ env });
  });

  it('a removal gives 410 on every instance', async () => {
    // An operator removes v1 in the shared database (as a restore or a script would) and
    // announces it on the feed; every instance must refuse v1 from then on.
    const client = new pg.Client({ connectionString: sharedPostgresUrl });
    await client.connect();
    await client.query(
      `UPDATE ${schema.name}.versionary_version_schedules SET deprecated_at = $1, sunset_at = $2, removed = 1 WHERE version = 'v1'`,
      [Date.UTC(2020, 0, 1), Date.UTC(2021, 0, 1)],
    );
    await client.end();
    const redis = new Redis(sharedRedisUrl);
    await redis.publish(`${prefix}changes`, JSON.stringify({ topic: 'lifecycle', origin: 'operator' }));
    await redis.quit();
    for (const on of instances) {
      await eventually(async () => (await fetch(`${on.base}/api/v1/users`, { headers: admin })).status === 410, 10_000);
      const res = await fetch(`${on.base}/api/v1/users`, { headers: admin });
      assert.equal(res.status, 410);
      assert.equal(((await res.json()) as { code: string }).code, 'VERSION_REMOVED');
    }
  });
});

async function usageCalls(on: ServiceProcess): Promise<number> {
  const res = await fetch(`${on.base}/admin/v1/versions/v1`, { headers: admin });
  assert.equal(res.status, 200);
  return ((await res.json()) as { usage: { calls: number } }).usage.calls;
}

describe('two instances on PostgreSQL alone: the change feed is LISTEN/NOTIFY', { timeout: 120_000 }, () => {
  const schema = throwawaySchema();
  let instances: ServiceProcess[] = [];
  before(async () => {
    const env = {
      DATABASE_URL: sharedPostgresUrl,
      VERSIONARY_DB_SCHEMA: schema.name,
      VERSIONARY_ADMIN_KEY: adminKey,
      VERSIONARY_RECONCILE_MS: '60000',
    };
    instances = await Promise.all([0, 1].map(() => spawnService({ env })));
  });
  after(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await schema.drop();
  });

  it('an endpoint deprecated on one shows the Deprecation header on the other within 1 s', async (t) => {
    const [a, b] = instances as [ServiceProcess, ServiceProcess];
    assert.equal((await fetch(`${b.base}/api/v2/users`, { headers: admin })).headers.get('deprecation'), null);
    const res = await fetch(`${a.base}/admin/v1/deprecations`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 'v2', method: 'GET', path: '/users' }),
    });
    assert.equal(res.status, 201);
    const ms = await eventually(
      async () => (await fetch(`${b.base}/api/v2/users`, { headers: admin })).headers.get('deprecation') !== null,
      10_000,
    );
    t.diagnostic(`Deprecation on the other after ${ms} ms (LISTEN/NOTIFY)`);
    assert.ok(ms <= 1000, `header after ${ms} ms`);
    const metrics = await (await fetch(`${b.base}/metrics`, { headers: admin })).text();
    assert.match(metrics, /versionary_change_feed_healthy\{transport="postgres"\} 1/);
  });
});
