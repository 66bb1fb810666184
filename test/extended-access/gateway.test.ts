import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const admin = { authorization: `Bearer ${gatewayAdminKey}`, 'content-type': 'application/json' };

// The gateway is one composition with the loop: its lifecycle part answers a client with extended access past
// the sunset ("a concrete sunset date is given": its own) and every other client with the 410.
describe('versionary gateway: a grant past the sunset', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  const keys: Record<string, string> = {};
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${gateway.base}/admin/v1${path}`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  before(async () => {
    python = await startPythonUpstream();
    gateway = await startTestGateway({
      upstream: python.url,
      file: {
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 300 * day),
            sunsetAt: iso(t0 - day),
            extendedAccessUntil: iso(t0 + 100 * day),
            replacement: 'v2',
          },
        },
      },
    });
    for (const name of ['acme', 'globex']) {
      const client = await post('/clients', { name, contacts: [] });
      const key = await post('/api-keys', { name, roles: ['read'], clientId: client.body.id });
      keys[name] = key.body.key as string;
      if (name === 'acme') {
        const granted = await post('/extended-access-grants', {
          clientId: client.body.id,
          version: 'v1',
          until: iso(t0 + 30 * day),
          reason: 'renewal',
        });
        assert.equal(granted.status, 201, JSON.stringify(granted.body));
      }
    }
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });

  it('forwards the client with extended access with its own Sunset and refuses the other with 410', async () => {
    const call = (who: string) =>
      fetch(`${gateway.base}/api/v1/users`, { headers: { authorization: `Bearer ${keys[who]}` } });
    const own = await call('acme');
    assert.equal(own.status, 200, await own.text());
    assert.equal(new Date(own.headers.get('sunset')!).getTime(), t0 + 30 * day);
    assert.equal((await call('globex')).status, 410);
  });
});
