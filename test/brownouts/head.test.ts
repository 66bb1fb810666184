import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const hour = 3_600_000;
const t0 = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();

// HEAD is GET without the body: a brownout of `GET /users/{id}` refuses HEAD as well, with the
// same status and headers, or a client probing with HEAD would see the endpoint as still served.
describe('a brownout judges HEAD as GET, through the running service', () => {
  let now = t0;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  let key = '';
  let clientId = '';
  let userId = 0;
  const call = (method: 'GET' | 'HEAD', path: string) =>
    fetch(`${service.base}${path}`, { method, headers: { authorization: `Bearer ${key}` } });

  before(async () => {
    service = await startTestService({
      clock: { now: () => now },
      file: {
        rateLimit: { max: 1_000_000, windowSeconds: 60 },
        versions: { v1: { deprecatedAt: iso(t0 - 130 * day), sunsetAt: iso(t0 + 60 * day), replacement: 'v2' } },
      },
    });
    admin = adminCaller(service);
    const client = await admin('POST', '/admin/v1/clients', { name: 'acme', contacts: ['dev@acme.test'] });
    assert.equal(client.statusCode, 201, client.body);
    clientId = (JSON.parse(client.body) as { id: string }).id;
    const made = await admin('POST', '/admin/v1/api-keys', { name: 'acme', roles: ['read', 'write'], clientId });
    assert.equal(made.statusCode, 201, made.body);
    key = (JSON.parse(made.body) as { key: string }).key;
    // The client's own user: each client sees the users it made.
    const user = await fetch(`${service.base}/api/v2/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'H', email: 'h@example.com' }),
    });
    assert.equal(user.status, 201);
    userId = ((await user.json()) as { id: number }).id;
  });
  after(async () => {
    await service?.stop();
  });

  it('refuses HEAD during a client-targeted endpoint brownout of GET, as it refuses GET', async () => {
    const path = `/api/v1/users/${userId}`;
    const before = await call('HEAD', path);
    assert.equal(before.status, 200, 'served before the window');
    assert.ok(before.headers.get('etag'), 'HEAD carries the ETag while served');

    const startsAt = t0 + 2 * day;
    const planned = await admin('POST', '/admin/v1/brownouts', {
      version: 'v1',
      endpoint: 'GET /users/{id}',
      startsAt: iso(startsAt),
      endsAt: iso(startsAt + hour),
      target: { clients: [clientId] },
    });
    assert.equal(planned.statusCode, 201, planned.body);
    now = startsAt + 60_000;
    try {
      const get = await call('GET', path);
      assert.equal(get.status, 410);
      const head = await call('HEAD', path);
      assert.equal(head.status, 410, 'HEAD is refused as GET is');
      assert.equal(await head.text(), '', 'HEAD has no body');
      assert.equal(head.headers.get('etag'), null, 'no representation, so no ETag');
      for (const name of ['content-type', 'retry-after', 'deprecation', 'sunset'])
        assert.equal(head.headers.get(name), get.headers.get(name), name);
      // The rest of the version is not in the brownout, HEAD or GET.
      assert.equal((await call('HEAD', '/api/v1/users')).status, 200);
    } finally {
      now = t0;
    }
  });
});
