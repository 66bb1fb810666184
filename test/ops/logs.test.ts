import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { freePort, spawnService } from '../support/service-process.ts';

test(
  'the log never holds a key, a token or an Authorization header, and every request line has its id',
  { timeout: 120_000 },
  async () => {
    const adminKey = `log-test-admin-${randomBytes(8).toString('hex')}`;
    const metricsPort = await freePort();
    const service = await spawnService({
      env: {
        DATABASE_URL: 'sqlite::memory:',
        VERSIONARY_ADMIN_KEY: adminKey,
        LOG_LEVEL: 'trace',
        VERSIONARY_METRICS_PORT: String(metricsPort),
      },
    });
    const admin = { authorization: `Bearer ${adminKey}` };
    const created = (await (
      await fetch(`${service.base}/admin/v1/api-keys`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'log test', roles: ['read'] }),
      })
    ).json()) as { key: string; id: string };
    const key = created.key;
    const secret = key.split('.')[1]!;
    const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsb2ctdGVzdC0${randomBytes(6).toString('hex')}.c2lnbmF0dXJl`;
    const bogus = `vk_0123456789abcdef.${randomBytes(32).toString('base64url')}`;
    await fetch(`${service.base}/api/v2/users`, { headers: { authorization: `Bearer ${key}` } });
    await fetch(`${service.base}/api/v2/users`, { headers: { 'x-api-key': key } });
    await fetch(`${service.base}/api/v2/users`, { headers: { authorization: `Bearer ${bogus}` } });
    await fetch(`${service.base}/api/v2/users`, { headers: { authorization: `Bearer ${jwt}` } });
    await fetch(`${service.base}/api/v2/users`, {
      headers: { authorization: `Basic ${Buffer.from(`user:${adminKey}`).toString('base64')}` },
    });
    await fetch(`${service.base}/api/v2/users?api_key=${key}&access_token=${jwt}`, { headers: admin });
    await fetch(`${service.base}/api/v2/users`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: '{bad json',
    });
    await fetch(`${service.base}/admin/v1/api-keys/${created.id}`, { method: 'DELETE', headers: admin });
    await fetch(`${service.base}/api/v2/users`, {
      headers: { authorization: `Bearer ${key}`, 'x-request-id': 'traced-request-1' },
    });
    // The private metrics port answers without credentials; the service port wants an admin key.
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(scraped.status, 200);
    assert.match(
      await scraped.text(),
      /versionary_http_requests_total\{method="GET",route="\/api\/v2\/users",version="v2",status="401"\}/,
    );
    assert.equal((await fetch(`${service.base}/metrics`)).status, 401);
    assert.equal((await service.stop()).code, 0);
    const log = service.output();
    assert.ok(log.length > 1000, 'the service logged at trace level');
    for (const [name, value] of Object.entries({
      adminKey,
      key,
      secret,
      jwt,
      bogus,
      basic: Buffer.from(`user:${adminKey}`).toString('base64'),
    })) {
      assert.ok(!log.includes(value), `the log holds the ${name}`);
    }
    assert.doesNotMatch(log, /authorization"\s*:/i);
    assert.doesNotMatch(log, /x-api-key"\s*:/i);
    assert.doesNotMatch(log, /Bearer /);
    const requestLines = log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.req || l.res);
    assert.ok(requestLines.length >= 18);
    for (const line of requestLines) assert.equal(typeof line.reqId, 'string', JSON.stringify(line));
    assert.ok(requestLines.some((l) => l.reqId === 'traced-request-1'));
  },
);
