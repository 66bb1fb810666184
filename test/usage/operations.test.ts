import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClient, createClientsTestApp, createKey } from '../clients/support.ts';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders, testEpoch } from '../support/test-app.ts';

const hour = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('GET /admin/v1/usage/operations', () => {
  it('counts every call of every version per operation and client, with names and reachability', async () => {
    const t = await createClientsTestApp();
    const acme = await createClient(t.app, { name: 'Acme', contacts: ['dev@acme.test'] });
    const quiet = await createClient(t.app, {
      name: 'Quiet',
      contacts: [{ email: 'ops@quiet.test', subscribed: false }],
    });
    const hooked = await createClient(t.app, { name: 'Hooked', webhooks: [{ url: 'http://127.0.0.1:9/hook' }] });
    const acmeKey = await createKey(t.app, { name: 'acme-ci', roles: ['read'], clientId: acme.id });
    const quietKey = await createKey(t.app, { name: 'quiet', roles: ['read'], clientId: quiet.id });
    const hookedKey = await createKey(t.app, { name: 'hooked', roles: ['read'], clientId: hooked.id });
    const loose = await createKey(t.app, { name: 'loose', roles: ['read'] });
    const call = async (headers: Record<string, string>, target: string, status: number) => {
      const [method, url] = target.includes(' ') ? target.split(' ') : ['GET', target];
      const res = await t.app.inject({ method: method as 'GET', url: url!, headers });
      assert.equal(res.statusCode, status, `${target}: ${res.body}`);
    };
    // v1 is deprecated, v2 is not: both count.
    await call(acmeKey.headers, '/api/v1/users', 200);
    await call(acmeKey.headers, '/api/v1/users', 200);
    // A 404 from the handler still reached the operation.
    await call(acmeKey.headers, '/api/v2/users/1', 404);
    await call(quietKey.headers, '/api/v2/users', 200);
    await call(hookedKey.headers, '/api/v2/users', 200);
    await call(loose.headers, '/api/v2/users?limit=5', 200);
    // What never reached an operation is not counted: no credential, an unknown path, OPTIONS, a method the path lacks.
    await call({ authorization: 'Bearer vk_not-a-key' }, '/api/v2/users', 401);
    await call(acmeKey.headers, '/api/v2/nothing-here', 404);
    await call(acmeKey.headers, 'OPTIONS /api/v2/users', 204);
    // Into the next hour (until is exclusive: a call at the very instant of until is not in the window).
    t.clock.advance(hour + 60_000);
    await call(acmeKey.headers, '/api/v2/users/1', 404);

    const res = await t.app.inject({ url: '/admin/v1/usage/operations', headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    const now = testEpoch + hour + 60_000;
    assert.deepEqual(res.json().meta, {
      // Seven days by default, from the start of that hour.
      since: iso(testEpoch + hour - 7 * 24 * hour),
      until: iso(now),
      prefix: '/api',
    });
    const row = (version: string, endpoint: string, rest: { clientId: string; [key: string]: unknown }) => ({
      version,
      endpoint,
      ...rest,
    });
    const acmeOf = { clientName: 'Acme', contact: true };
    assert.deepEqual(
      res.json().data.filter((r: { clientId: string }) => r.clientId !== 'admin'),
      [
        row('v1', 'GET /users', { clientId: acme.id, ...acmeOf, calls: 2, lastSeen: iso(testEpoch) }),
        ...[
          row('v2', 'GET /users', { clientId: hooked.id, clientName: 'Hooked', contact: true, calls: 1 }),
          row('v2', 'GET /users', { clientId: loose.id, clientName: null, contact: false, calls: 1 }),
          row('v2', 'GET /users', { clientId: quiet.id, clientName: 'Quiet', contact: false, calls: 1 }),
        ]
          .sort((a, b) => (a.clientId < b.clientId ? -1 : 1))
          .map((r) => ({ ...r, lastSeen: iso(testEpoch) })),
        row('v2', 'GET /users/{id}', { clientId: acme.id, ...acmeOf, calls: 2, lastSeen: iso(now) }),
      ],
    );

    const only = async (query: string) => {
      const r = await t.app.inject({ url: `/admin/v1/usage/operations?${query}`, headers: adminHeaders });
      assert.equal(r.statusCode, 200, r.body);
      return r
        .json()
        .data.map((d: { version: string; endpoint: string; calls: number }) => [d.version, d.endpoint, d.calls]);
    };
    assert.deepEqual(await only(`version=v2&client=${acme.id}`), [['v2', 'GET /users/{id}', 2]]);
    // Whole UTC hours: since in the second hour reads that hour; until at its start stops before it.
    const second = iso(testEpoch + hour + 30_000);
    assert.deepEqual(await only(`client=${acme.id}&since=${second}`), [['v2', 'GET /users/{id}', 1]]);
    assert.deepEqual(await only(`client=${acme.id}&until=${iso(testEpoch + hour)}`), [
      ['v1', 'GET /users', 2],
      ['v2', 'GET /users/{id}', 1],
    ]);
    assert.deepEqual(await only(`since=${iso(now + hour)}&until=${iso(now + 2 * hour)}`), []);
    await t.close();
  });

  it('refuses a bad window or an unknown parameter with a 400 problem', async () => {
    const t = await createClientsTestApp();
    for (const query of [
      'since=yesterday',
      'until=2026-13-01',
      `since=${iso(testEpoch)}&until=${iso(testEpoch - hour)}`,
      `since=${iso(testEpoch)}&until=${iso(testEpoch)}`,
      'limit=5',
      `version=${'v'.repeat(30)}`,
      // An empty filter is not "every version": the gate's --api-version "$V" with V unset.
      'version=',
      'client=',
    ]) {
      const res = await t.app.inject({ url: `/admin/v1/usage/operations?${query}`, headers: adminHeaders });
      assertProblem(res, { status: 400 });
    }
    const consumer = await createKey(t.app, { name: 'reader', roles: ['read'] });
    assert.equal(
      (await t.app.inject({ url: '/admin/v1/usage/operations', headers: consumer.headers })).statusCode,
      403,
      'admins only, as the other usage routes',
    );
    await t.close();
  });
});
