import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';
import { eventually, sharedPostgresUrl, sharedRedisUrl, throwawaySchema } from '../support/service-process.ts';

const admin = { authorization: `Bearer ${gatewayAdminKey}` };

describe('gateway: two instances on PostgreSQL and Redis', () => {
  const schema = throwawaySchema();
  let python: PythonUpstream;
  const gateways: TestGateway[] = [];
  before(async () => {
    python = await startPythonUpstream();
    const env = {
      DATABASE_URL: sharedPostgresUrl,
      VERSIONARY_DB_SCHEMA: schema.name,
      VERSIONARY_REDIS_URL: sharedRedisUrl,
      VERSIONARY_REDIS_PREFIX: `gw-${randomBytes(4).toString('hex')}:`,
      // A reconcile far away: only the change feed can carry a change in time.
      VERSIONARY_RECONCILE_MS: '600000',
    };
    for (let i = 0; i < 2; i++) gateways.push(await startTestGateway({ upstream: python.url, env }));
  });
  after(async () => {
    for (const gateway of gateways) await gateway.stop();
    await schema.drop();
    await python.stop();
  });

  it('a deprecation scheduled on one gateway is applied by the other at once, and both count usage in one place', async () => {
    const [a, b] = gateways as [TestGateway, TestGateway];
    assert.equal(
      (await fetch(`${b.base}/api/v1/users/1`, { headers: admin })).headers.get('deprecation'),
      null,
      'nothing is deprecated unless the config says so',
    );
    const scheduled = await fetch(`${a.base}/admin/v1/versions/v1/deprecation`, {
      method: 'PUT',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ noticeMonths: 6 }),
    });
    assert.equal(scheduled.status, 200, await scheduled.text());
    const ms = await eventually(
      async () => (await fetch(`${b.base}/api/v1/users/1`, { headers: admin })).headers.get('deprecation') !== null,
      3000,
    );
    assert.ok(ms < 1500, `B applied the deprecation after ${ms} ms`);
    const client = (await (
      await fetch(`${a.base}/admin/v1/clients`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Acme', contacts: [] }),
      })
    ).json()) as { id: string };
    const key = (
      (await (
        await fetch(`${a.base}/admin/v1/api-keys`, {
          method: 'POST',
          headers: { ...admin, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'acme', roles: ['read'], clientId: client.id }),
        })
      ).json()) as { key: string }
    ).key;
    for (const gateway of [a, b, b])
      assert.equal(
        (await fetch(`${gateway.base}/api/v1/users/2`, { headers: { authorization: `Bearer ${key}` } })).status,
        200,
      );
    // Each instance buffers its own usage; asking one flushes only its buffer, so ask both.
    await fetch(`${b.base}/admin/v1/usage/clients?version=v1`, { headers: admin });
    const usage = (await (await fetch(`${a.base}/admin/v1/usage/clients?version=v1`, { headers: admin })).json()) as {
      data: Array<{ clientId: string; calls: number }>;
    };
    assert.equal(usage.data.find((r) => r.clientId === client.id)?.calls, 3);
  });
});
