import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { spawnGateway, startPythonUpstream, type PythonUpstream, type TestGateway } from '../support/gateway.ts';

const secret = 'gateway-jwt-secret-0123456789abcdef';
const sign = (claims: Record<string, unknown>) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(secret));

describe('gateway security: identities (versionary gateway as a process, identify: jwt)', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await spawnGateway({
      upstream: python.url,
      gateway: { identify: { jwt: true } },
      env: { VERSIONARY_JWT_SECRET: secret },
    });
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });

  it('a token whose scope names admin calls the API, and never opens the management API', async () => {
    const token = await sign({ sub: 'alice', client_id: 'cl_alpha', scope: 'read admin' });
    const api = await fetch(`${gateway.base}/api/v2/users/1`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(api.status, 200);
    for (const [method, path] of [
      ['POST', '/admin/v1/api-keys'],
      ['GET', '/admin/v1/api-keys'],
    ] as const) {
      const res = await fetch(`${gateway.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ name: 'minted', roles: ['admin'] }) } : {}),
      });
      assert.equal(res.status, 403, `${method} ${path}: ${await res.text()}`);
    }
  });

  it('a claim that cannot be a header value is a 401 problem, not a 502', async () => {
    for (const claims of [
      { sub: 'evil\r\nx-injected: 1' },
      { sub: 'ünïcödé-€' },
      { sub: 'x', client_id: 'a\u0000b' },
    ]) {
      const token = await sign(claims);
      const res = await fetch(`${gateway.base}/api/v2/users/1`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 401, `${JSON.stringify(claims)}: ${await res.text()}`);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    }
  });
});
