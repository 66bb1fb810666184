import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  eventually,
  sharedPostgresUrl,
  spawnService,
  throwawaySchema,
  type ServiceProcess,
} from '../support/service-process.ts';

// Two service processes on one PostgreSQL schema, without Redis: the change feed is LISTEN/NOTIFY.
// Each caches verified keys for 30 s and the reconcile runs once a minute, so a key refused within
// a second on the other instance was dropped from its cache by the feed.
const adminKey = `key-cache-admin-${randomBytes(4).toString('hex')}`;
const admin = { authorization: `Bearer ${adminKey}` };

describe('the API key cache across instances', { timeout: 180_000 }, () => {
  const schema = throwawaySchema();
  let instances: ServiceProcess[] = [];
  before(async () => {
    const env = {
      DATABASE_URL: sharedPostgresUrl,
      VERSIONARY_DB_SCHEMA: schema.name,
      VERSIONARY_ADMIN_KEY: adminKey,
      VERSIONARY_RECONCILE_MS: '60000',
      LOG_LEVEL: 'warn',
    };
    instances = await Promise.all([0, 1].map(() => spawnService({ env })));
  });
  after(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await schema.drop();
  });

  it('a key revoked on one instance is refused by the other, which had it cached, within 1 s', async () => {
    const [a, b] = instances as [ServiceProcess, ServiceProcess];
    const created = await fetch(`${a.base}/admin/v1/api-keys`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cached', roles: ['read'] }),
    });
    assert.equal(created.status, 201);
    const { id, key } = (await created.json()) as { id: string; key: string };
    const auth = { authorization: `Bearer ${key}` };
    // Used on b several times: verified once, then answered from b's cache.
    for (let i = 0; i < 5; i++) assert.equal((await fetch(`${b.base}/api/v2/users`, { headers: auth })).status, 200);
    const revoked = await fetch(`${a.base}/admin/v1/api-keys/${id}`, { method: 'DELETE', headers: admin });
    assert.ok(revoked.ok, `revoke answered ${revoked.status}`);
    assert.equal(
      (await fetch(`${a.base}/api/v2/users`, { headers: auth })).status,
      401,
      'refused at once where it was revoked',
    );
    const ms = await eventually(
      async () => (await fetch(`${b.base}/api/v2/users`, { headers: auth })).status === 401,
      10_000,
    );
    assert.ok(ms <= 1000, `the other instance refused it after ${ms} ms`);
    // And it stays refused: nothing put it back in the cache.
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${b.base}/api/v2/users`, { headers: auth })).status, 401);
  });
});
