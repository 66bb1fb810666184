import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startOwnRedis } from '../support/own-servers.ts';
import { eventually, sharedPostgresUrl, spawnService, throwawaySchema } from '../support/service-process.ts';

const adminKey = `redis-faults-admin-${randomBytes(4).toString('hex')}`;
const admin = { authorization: `Bearer ${adminKey}` };

describe('Redis faults', { timeout: 180_000 }, () => {
  const schema = throwawaySchema();
  const dir = mkdtempSync(join(tmpdir(), 'versionary-redis-faults-'));
  after(async () => {
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'Redis down: normal latency, a local limit, a metric and a log line, no unhandled error; back by itself',
    { timeout: 120_000 },
    async (t) => {
      const redis = await startOwnRedis();
      const config = join(dir, 'config.json');
      writeFileSync(
        config,
        JSON.stringify({ rateLimit: { max: 100_000, windowSeconds: 60, roles: { read: { max: 5 } } } }),
      );
      const service = await spawnService({
        env: {
          DATABASE_URL: sharedPostgresUrl,
          VERSIONARY_DB_SCHEMA: schema.name,
          VERSIONARY_REDIS_URL: redis.url,
          VERSIONARY_REDIS_PREFIX: 'faults:',
          VERSIONARY_ADMIN_KEY: adminKey,
          VERSIONARY_CONFIG: config,
        },
      });
      try {
        const metric = async (name: string) => {
          const text = await (await fetch(`${service.base}/metrics`, { headers: admin })).text();
          return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]);
        };
        const latencies = async () => {
          const ms: number[] = [];
          for (let i = 0; i < 20; i++) {
            const started = Date.now();
            assert.equal((await fetch(`${service.base}/api/v2/users`, { headers: admin })).status, 200);
            ms.push(Date.now() - started);
          }
          return ms.sort((a, b) => a - b);
        };
        const up = await latencies();
        assert.equal(await metric('versionary_rate_limit_fallback'), 0);
        await redis.stop();
        const down = await latencies();
        t.diagnostic(
          `20 requests, Redis up: median ${up[10]} ms, slowest ${up.at(-1)} ms; Redis down: median ${down[10]} ms, slowest ${down.at(-1)} ms`,
        );
        // Broken, each request took 0.4 s, then 1.4, 5 and 10 s; bounded, the slowest pays one short timeout.
        assert.ok(down[down.length - 1]! < 1000, `slowest request with Redis down: ${down.at(-1)} ms`);
        assert.equal(await metric('versionary_rate_limit_fallback'), 1);
        await eventually(async () => (await metric('versionary_change_feed_healthy')) === 0, 10_000);
        assert.ok((await metric('versionary_rate_limit_store_failures_total')) >= 1);
        // The limit still holds, per instance.
        const created = (await (
          await fetch(`${service.base}/admin/v1/api-keys`, {
            method: 'POST',
            headers: { ...admin, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'r', roles: ['read'] }),
          })
        ).json()) as { key: string };
        const statuses = [];
        for (let i = 0; i < 8; i++)
          statuses.push(
            (await fetch(`${service.base}/api/v2/users`, { headers: { authorization: `Bearer ${created.key}` } }))
              .status,
          );
        assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
        // Redis readiness: not ready while it is away.
        await eventually(async () => (await fetch(`${service.base}/readyz`)).status === 503, 5000);
        await redis.start();
        await eventually(
          async () =>
            (await fetch(`${service.base}/api/v2/users`, { headers: admin })).ok &&
            (await metric('versionary_rate_limit_fallback')) === 0,
          15_000,
        );
        await eventually(async () => (await fetch(`${service.base}/readyz`)).status === 200, 15_000);
        await eventually(async () => (await metric('versionary_change_feed_healthy')) === 1, 15_000);
        const output = service.output();
        assert.match(output, /rate-limit store unavailable: counting locally, per instance/);
        assert.match(output, /rate-limit store is back: counting globally again/);
        assert.doesNotMatch(output, /Unhandled error event/);
      } finally {
        assert.equal((await service.stop()).code, 0);
        await redis.stop();
      }
    },
  );
});
