import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  spawnGateway,
  startPythonUpstream,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

const bad = (i: number) => `Bearer vk_${i.toString(16).padStart(16, '0')}.${'A'.repeat(43)}`;

describe('gateway security: rate limits cannot be turned against valid clients (versionary gateway as a process)', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await spawnGateway({
      upstream: python.url,
      file: { rateLimit: { max: 5, windowSeconds: 600 } },
      env: { VERSIONARY_TRUST_PROXY: '127.0.0.1' },
    });
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });
  const call = (path: string, headers: Record<string, string>, init: RequestInit = {}) =>
    fetch(`${gateway.base}${path}`, { ...init, headers });

  it('bad keys spend their address, and valid keys from that address still pass', async () => {
    const admin = { authorization: `Bearer ${gatewayAdminKey}` };
    const created = await call(
      '/admin/v1/api-keys',
      { ...admin, 'content-type': 'application/json' },
      { method: 'POST', body: JSON.stringify({ name: 'alpha', roles: ['read'] }) },
    );
    assert.equal(created.status, 201, await created.clone().text());
    const { key } = (await created.json()) as { key: string };
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await call('/api/v2/users/1', { authorization: bad(i) })).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429]);
    assert.equal((await call('/api/v2/users/1', { authorization: `Bearer ${key}` })).status, 200, 'a valid key');
    assert.equal((await call('/admin/v1/api-keys', admin)).status, 200, 'the admin key');
  });

  it('with VERSIONARY_TRUST_PROXY, each client behind the proxy has its own address budget', async () => {
    const anonymous = (address: string) => call('/api/v2/users/1', { 'x-forwarded-for': address });
    for (let i = 0; i < 5; i++) assert.equal((await anonymous('198.51.100.7')).status, 401);
    assert.equal((await anonymous('198.51.100.7')).status, 429, 'that client is over its budget');
    assert.equal((await anonymous('198.51.100.8')).status, 401, 'another client behind the same proxy is not');
  });
});
