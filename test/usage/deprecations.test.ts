import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClient, createKey } from '../clients/support.ts';
import { adminHeaders, testEpoch } from '../support/test-app.ts';
import { startWithElements } from '../support/deprecation-app.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe('GET /admin/v1/deprecations', () => {
  it('lists every deprecated version, endpoint, field and parameter with its usage per distinct client', async () => {
    const t = await startWithElements();
    const acme = await createClient(t.app, { name: 'Acme', contacts: ['dev@acme.test'] });
    const beta = await createClient(t.app, { name: 'Beta', contacts: ['dev@beta.test'] });
    const acmeKey = await createKey(t.app, { name: 'acme-ci', roles: ['read', 'write'], clientId: acme.id });
    const betaKey = await createKey(t.app, { name: 'beta-ci', roles: ['read', 'write'], clientId: beta.id });
    const deprecated = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/deprecations',
      headers: adminHeaders,
      payload: { version: 'v2', method: 'GET', path: '/users', noticeMonths: 6 },
    });
    assert.equal(deprecated.statusCode, 201, deprecated.body);

    // v1 is deprecated in the reference service: two calls of Acme, one of Beta.
    for (const headers of [acmeKey.headers, acmeKey.headers, betaKey.headers])
      assert.equal((await t.app.inject({ url: '/api/v1/users', headers })).statusCode, 200);
    t.clock.advance(60_000);
    assert.equal((await t.app.inject({ url: '/api/v2/users', headers: betaKey.headers })).statusCode, 200);

    // What the request path records for a use of a deprecated element, until its detection is merged.
    const at = testEpoch + 120_000;
    const use = ([clientId, endpoint, element, offset]: [string, string, string, number]) => ({
      version: 'v2',
      endpoint,
      clientId,
      keyId: clientId === acme.id ? acmeKey.id : betaKey.id,
      at: at + offset,
      element,
    });
    await t.storage.usage.insert([
      use([acme.id, 'POST /users', 'UserInput.nickname', 0]),
      use([acme.id, 'POST /users', 'UserInput.nickname', 1]),
      use([acme.id, 'PATCH /users/{id}', 'UserInput.nickname', 2]),
      use([beta.id, 'POST /users', 'UserInput.nickname', 3]),
      use([beta.id, 'GET /users', 'GET /users?fields', 4]),
    ]);

    const res = await t.app.inject({ url: '/admin/v1/deprecations', headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data as Array<Record<string, unknown>>;
    assert.deepEqual(
      data.map((d) => [d.kind, d.name, d.version]),
      [
        ['version', 'v1', 'v1'],
        ['endpoint', 'GET /users in v2', 'v2'],
        ['field', 'UserInput.nickname', 'v2'],
        ['parameter', 'GET /users?fields', 'v2'],
      ],
    );
    const byName = new Map(data.map((d) => [d.name, d]));
    assert.deepEqual(byName.get('v1')!.usage, {
      calls: 3,
      clients: 2,
      endpoints: 1,
      lastCall: iso(testEpoch),
    });
    assert.equal(byName.get('v1')!.replacement, 'v2');
    assert.deepEqual(
      byName.get('GET /users in v2')!.usage,
      { calls: 1, clients: 1, endpoints: 1, lastCall: iso(testEpoch + 60_000) },
      'the element calls of v2 do not count as calls of its deprecated endpoint',
    );
    assert.equal(byName.get('GET /users in v2')!.deprecatedAt, iso(testEpoch));
    assert.deepEqual(byName.get('UserInput.nickname'), {
      kind: 'field',
      name: 'UserInput.nickname',
      version: 'v2',
      deprecatedAt: '2026-01-01T00:00:00.000Z',
      sunsetAt: '2027-01-01T00:00:00.000Z',
      replacement: 'UserInput.displayName',
      migrationUrl: null,
      usage: { calls: 4, clients: 2, endpoints: 2, lastCall: iso(at + 3) },
    });
    assert.deepEqual(byName.get('GET /users?fields'), {
      kind: 'parameter',
      name: 'GET /users?fields',
      version: 'v2',
      deprecatedAt: '2026-01-10T00:00:00.000Z',
      sunsetAt: '2026-10-01T00:00:00.000Z',
      replacement: null,
      migrationUrl: 'https://example.com/sort',
      usage: { calls: 1, clients: 1, endpoints: 1, lastCall: iso(at + 4) },
    });

    const v2 = (await t.app.inject({ url: '/admin/v1/versions/v2', headers: adminHeaders })).json();
    assert.deepEqual(v2.usage, { calls: 1, clients: 1, endpoints: 1 }, 'the version summary ignores element calls');
    await t.close();
  });

  it('lists an element nobody used with zero usage, and is for admins only', async () => {
    const t = await startWithElements();
    const data = (await t.app.inject({ url: '/admin/v1/deprecations', headers: adminHeaders })).json().data;
    const field = data.find((d: { name: string }) => d.name === 'UserInput.nickname');
    assert.deepEqual(field.usage, { calls: 0, clients: 0, endpoints: 0, lastCall: null });
    const reader = await createKey(t.app, { name: 'reader', roles: ['read', 'write'] });
    assert.equal((await t.app.inject({ url: '/admin/v1/deprecations', headers: reader.headers })).statusCode, 403);
    assert.equal(
      (await t.app.inject({ url: '/admin/v1/deprecations?kind=field', headers: adminHeaders })).statusCode,
      400,
      'unknown query parameters are refused',
    );
    await t.close();
  });
});
