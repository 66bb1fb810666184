import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders } from '../support/test-app.ts';
import { createClient, createClientsTestApp, createKey } from './support.ts';

type Row = { clientId: string; version: string; endpoint: string; keyId: string | null };
const compare = (a: Row, b: Row) => {
  for (const k of ['clientId', 'version', 'endpoint', 'keyId'] as const)
    if (a[k] !== b[k]) return (a[k] ?? '') < (b[k] ?? '') ? -1 : 1;
  return 0;
};

describe('usage per client', () => {
  it("counts calls for the key's client, with key, User-Agent, first and last seen", async () => {
    const t = await createClientsTestApp();
    const acme = await createClient(t.app, { name: 'Acme', contacts: ['dev@acme.test'] });
    const ci = await createKey(t.app, { name: 'acme-ci', roles: ['read'], clientId: acme.id });
    const web = await createKey(t.app, { name: 'acme-web', roles: ['read'], clientId: acme.id });
    const loose = await createKey(t.app, { name: 'loose', roles: ['read'] });
    const call = (headers: Record<string, string>, url = '/api/v1/users') => t.app.inject({ url, headers });
    assert.equal((await call({ ...ci.headers, 'user-agent': 'acme-sdk/1.0' })).statusCode, 200);
    t.clock.advance(90_000);
    assert.equal((await call({ ...ci.headers, 'user-agent': 'acme-sdk/1.1' })).statusCode, 200);
    await call({ ...web.headers, 'user-agent': 'acme-web/3' });
    await call(loose.headers);
    await call(loose.headers, '/api/v1/users/1');
    await call(ci.headers, '/api/v2/users');

    const detail = (await t.app.inject({ url: '/admin/v1/versions/v1', headers: adminHeaders })).json();
    assert.deepEqual(
      detail.usage,
      { calls: 5, clients: 2, endpoints: 2 },
      'two clients: Acme (two keys) and the loose key',
    );

    const res = await t.app.inject({ url: '/admin/v1/usage/endpoints?version=v1', headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    const { data, meta } = res.json();
    assert.deepEqual(
      meta,
      { since: '2025-10-17T12:01:30.000Z', until: '2026-01-15T12:01:30.000Z' },
      '90 days by default',
    );
    const start = '2026-01-15T12:00:00.000Z';
    const later = '2026-01-15T12:01:30.000Z';
    assert.deepEqual(
      data,
      [
        {
          clientId: acme.id,
          clientName: 'Acme',
          version: 'v1',
          endpoint: 'GET /users',
          keyId: ci.id,
          keyName: 'acme-ci',
          calls: 2,
          firstSeen: start,
          lastSeen: later,
          userAgent: 'acme-sdk/1.1',
        },
        {
          clientId: acme.id,
          clientName: 'Acme',
          version: 'v1',
          endpoint: 'GET /users',
          keyId: web.id,
          keyName: 'acme-web',
          calls: 1,
          firstSeen: later,
          lastSeen: later,
          userAgent: 'acme-web/3',
        },
        {
          clientId: loose.id,
          clientName: null,
          version: 'v1',
          endpoint: 'GET /users',
          keyId: loose.id,
          keyName: 'loose',
          calls: 1,
          firstSeen: later,
          lastSeen: later,
          userAgent: 'lightMyRequest',
        },
        {
          clientId: loose.id,
          clientName: null,
          version: 'v1',
          endpoint: 'GET /users/{id}',
          keyId: loose.id,
          keyName: 'loose',
          calls: 1,
          firstSeen: later,
          lastSeen: later,
          userAgent: 'lightMyRequest',
        },
      ].sort(compare),
      'ordered by client, version, endpoint and key',
    );
    const own = (
      await t.app.inject({ url: `/admin/v1/usage/endpoints?client=${acme.id}`, headers: adminHeaders })
    ).json().data;
    assert.deepEqual(
      own.map((r: { calls: number }) => r.calls).sort(),
      [1, 2],
      'v2 is not deprecated, so not recorded',
    );
    const window = (
      await t.app.inject({ url: '/admin/v1/usage/endpoints?since=2026-01-15T12:01:00Z', headers: adminHeaders })
    ).json().data;
    assert.equal(
      window.reduce((n: number, r: { calls: number }) => n + r.calls, 0),
      4,
      'the first call is before the window',
    );

    const overview = (await t.app.inject({ url: '/admin/v1/usage/clients?version=v1', headers: adminHeaders })).json()
      .data;
    assert.deepEqual(
      overview.map((r: Record<string, unknown>) => [r.clientId, r.clientName, r.calls, r.firstSeen, r.lastSeen]).sort(),
      [
        [acme.id, 'Acme', 3, start, later],
        [loose.id, null, 2, later, later],
      ].sort(),
    );
    const days = (await t.app.inject({ url: '/admin/v1/usage/days?version=v1', headers: adminHeaders })).json();
    assert.deepEqual(days.data, [{ day: '2026-01-15', version: 'v1', calls: 5, clients: 2 }]);
    const perClient = (
      await t.app.inject({ url: '/admin/v1/usage/days?perClient=true', headers: adminHeaders })
    ).json();
    assert.deepEqual(
      perClient.data.map((r: { clientId: string; calls: number }) => [r.clientId, r.calls]).sort(),
      [
        [acme.id, 3],
        [loose.id, 2],
      ].sort(),
    );

    for (const query of [
      'since=yesterday',
      'until=2026-13-01',
      'since=2026-01-16&until=2026-01-15',
      'since=2026-01-15&until=2026-01-15',
      'version=' + 'v'.repeat(30),
      'other=1',
      'perClient=yes',
    ]) {
      const url = query.startsWith('perClient') ? `/admin/v1/usage/days?${query}` : `/admin/v1/usage/clients?${query}`;
      assertProblem(await t.app.inject({ url, headers: adminHeaders }), { status: 400 });
    }
    await t.close();
  });

  it('keeps raw events for the calls listing within their retention, or none', async () => {
    const t = await createClientsTestApp({ usage: { rawRetentionDays: 0 } });
    const key = await createKey(t.app, { name: 'k', roles: ['read'] });
    await t.app.inject({ url: '/api/v1/users', headers: key.headers });
    assert.equal((await t.app.inject({ url: '/admin/v1/versions/v1', headers: adminHeaders })).json().usage.calls, 1);
    assert.deepEqual(
      (await t.app.inject({ url: '/admin/v1/versions/v1/calls', headers: adminHeaders })).json().data,
      [],
      'no raw events kept',
    );
    await t.close();

    const kept = await createClientsTestApp();
    const k2 = await createKey(kept.app, { name: 'k', roles: ['read'] });
    await kept.app.inject({ url: '/api/v1/users', headers: k2.headers });
    const calls = (await kept.app.inject({ url: '/admin/v1/versions/v1/calls', headers: adminHeaders })).json().data;
    assert.deepEqual(calls, [
      { version: 'v1', endpoint: 'GET /users', clientId: k2.id, at: '2026-01-15T12:00:00.000Z' },
    ]);
    await kept.close();
  });
});
