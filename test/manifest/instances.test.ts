import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import {
  eventually,
  sharedPostgresUrl,
  sharedRedisUrl,
  spawnService,
  throwawaySchema,
  type ServiceProcess,
} from '../support/service-process.ts';
import { entryOf, readManifest } from './manifest-support.ts';

const adminKey = `manifest-admin-${randomBytes(4).toString('hex')}`;

// Two service processes as production runs them, on one PostgreSQL schema and one Redis prefix,
// behind a load balancer: a cache that revalidates with either must get the same ETag for the same
// manifest, and both must move together when the lifecycle does.
describe('the deprecation manifest of two instances that share a lifecycle', { timeout: 180_000 }, () => {
  const schema = throwawaySchema();
  const prefix = `vtest:${randomBytes(6).toString('hex')}:`;
  let instances: ServiceProcess[] = [];
  before(async () => {
    const env = {
      DATABASE_URL: sharedPostgresUrl,
      VERSIONARY_DB_SCHEMA: schema.name,
      VERSIONARY_REDIS_URL: sharedRedisUrl,
      VERSIONARY_REDIS_PREFIX: prefix,
      VERSIONARY_ADMIN_KEY: adminKey,
    };
    // One first, so the first start's deprecation of v1 is stored once and read by the other.
    instances = [await spawnService({ env })];
    instances.push(await spawnService({ env }));
  });
  after(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await schema.drop();
    const redis = new Redis(sharedRedisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('tags the same manifest alike on both, and both follow an endpoint deprecated on one', async () => {
    const [a, b] = instances as [ServiceProcess, ServiceProcess];
    const first = await readManifest(`${a.base}/api/deprecations`);
    assert.equal(first.status, 200);
    entryOf(first.deprecations, 'version', 'v1');
    assert.equal((await readManifest(`${b.base}/api/deprecations`)).etag, first.etag);
    assert.equal((await readManifest(`${b.base}/api/deprecations`, first.etag!)).status, 304);

    const res = await fetch(`${a.base}/admin/v1/deprecations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 'v2', method: 'GET', path: '/users/{id}/posts', noticeMonths: 7 }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const moved = await readManifest(`${a.base}/api/deprecations`, first.etag!);
    assert.equal(moved.status, 200);
    entryOf(moved.deprecations, 'endpoint', 'GET /users/{id}/posts');
    await eventually(async () => (await readManifest(`${b.base}/api/deprecations`)).etag === moved.etag, 10_000);
  });
});
