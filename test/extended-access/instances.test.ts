import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { eventually, sharedPostgresUrl, sharedRedisUrl, throwawaySchema } from '../support/service-process.ts';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const json = (res: { body: string }): unknown => JSON.parse(res.body);

/**
 * Two instances on one PostgreSQL schema and one Redis change feed, with one injected clock: an
 * grant granted on one is honoured by the other, and both refuse it after the cap. The spec's
 * "After the sunset date the version answers 410 or 404 (documented)" holds on each instance for
 * every client without extended access, and for the client with extended access after its own concrete date.
 */
describe('extended access across two instances (PostgreSQL, Redis)', { timeout: 120_000 }, () => {
  const schema = throwawaySchema();
  const prefix = `vtest:${randomBytes(6).toString('hex')}:`;
  let now = t0;
  let instances: StartedService[] = [];
  const keys: Record<string, string> = {};
  const clients: Record<string, string> = {};
  const call = (on: StartedService, who: string) =>
    fetch(`${on.base}/api/v1/users`, { headers: { authorization: `Bearer ${keys[who]}` } });

  before(async () => {
    const options = {
      clock: { now: () => now },
      env: {
        DATABASE_URL: sharedPostgresUrl,
        VERSIONARY_DB_SCHEMA: schema.name,
        VERSIONARY_REDIS_URL: sharedRedisUrl,
        VERSIONARY_REDIS_PREFIX: prefix,
      },
      file: {
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 10 * day),
            extendedAccessUntil: iso(t0 + 100 * day),
            migrationUrl: 'https://docs.example.com/v1-to-v2',
          },
        },
      },
    };
    instances = [await startTestService(options)];
    instances.push(await startTestService(options));
    const admin = adminCaller(instances[0]!);
    for (const name of ['acme', 'globex']) {
      const client = json(await admin('POST', '/admin/v1/clients', { name, contacts: [] })) as { id: string };
      clients[name] = client.id;
      const key = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: client.id });
      keys[name] = (json(key) as { key: string }).key;
    }
  });
  after(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await schema.drop();
    const redis = new Redis(sharedRedisUrl);
    const stale = await redis.keys(`${prefix}*`);
    if (stale.length > 0) await redis.del(...stale);
    await redis.quit();
  });

  it('serves the client with extended access on both with its own Sunset, 410 to the other, and refuses past the cap', async () => {
    const [a, b] = instances as [StartedService, StartedService];
    now = t0 + 20 * day;
    assert.equal((await call(b, 'acme')).status, 410, 'no grant yet');
    const beyond = await adminCaller(a)('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.acme,
      version: 'v1',
      until: iso(t0 + 120 * day),
      reason: 'too late',
    });
    assert.equal(beyond.statusCode, 400, beyond.body);
    const granted = await adminCaller(a)('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.acme,
      version: 'v1',
      until: iso(t0 + 60 * day),
      reason: 'contract renewal',
    });
    assert.equal(granted.statusCode, 201, granted.body);
    const onA = await call(a, 'acme');
    assert.equal(onA.status, 200, 'the granting instance at once');
    assert.equal(new Date(onA.headers.get('sunset')!).getTime(), t0 + 60 * day);
    await eventually(async () => (await call(b, 'acme')).status === 200, 10_000);
    assert.equal(new Date((await call(b, 'acme')).headers.get('sunset')!).getTime(), t0 + 60 * day);
    for (const on of [a, b]) assert.equal((await call(on, 'globex')).status, 410);
    now = t0 + 100 * day + 1;
    for (const on of [a, b]) assert.equal((await call(on, 'acme')).status, 410, 'after the cap');
  });
});
