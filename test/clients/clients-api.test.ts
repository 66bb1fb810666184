import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders, createTestApp } from '../support/test-app.ts';
import { createClient, createClientsTestApp, createKey } from './support.ts';

const hook = 'http://127.0.0.1:9/hooks/versionary';

describe('the clients management API', () => {
  it('creates a client, shows each webhook secret once, and never lists it again', async () => {
    const t = await createClientsTestApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/clients',
      headers: adminHeaders,
      payload: {
        name: 'Acme',
        contacts: ['Dev@Acme.test', { email: 'ops@acme.test', subscribed: false }],
        webhooks: [{ url: hook }],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.match(created.id, /^cl_[0-9a-f]{16}$/);
    assert.equal(res.headers.location, `/admin/v1/clients/${created.id}`);
    assert.deepEqual(created.contacts, [
      { email: 'dev@acme.test', subscribed: true },
      { email: 'ops@acme.test', subscribed: false },
    ]);
    const [webhook] = created.webhooks;
    assert.match(webhook.id, /^wh_[0-9a-f]{16}$/);
    assert.equal(webhook.url, hook);
    assert.match(webhook.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.equal(Buffer.from(webhook.secret.slice('whsec_'.length), 'base64').length, 32, '256-bit secret');
    assert.equal(created.createdAt, '2026-01-15T12:00:00.000Z');

    const shown = await t.app.inject({ url: `/admin/v1/clients/${created.id}`, headers: adminHeaders });
    assert.equal(shown.statusCode, 200);
    assert.deepEqual(shown.json(), { ...created, webhooks: [{ id: webhook.id, url: hook }] });
    const listed = await t.app.inject({ url: '/admin/v1/clients', headers: adminHeaders });
    assert.deepEqual(listed.json().data, [shown.json()]);
    assert.ok(
      !listed.body.includes(webhook.secret) && !shown.body.includes(webhook.secret),
      'the secret is never shown again',
    );
    assert.equal(
      (await t.storage.clients.find(created.id))?.webhooks[0]?.secret,
      webhook.secret,
      'but it is kept for signing',
    );
    await t.close();
  });

  it('refuses bad input with 400 problems that point at the field', async () => {
    const t = await createClientsTestApp();
    const post = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: '/admin/v1/clients', headers: adminHeaders, payload: payload as object });
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'A', contacts: ['not-an-email'] }, /contacts\/0/],
      [{ name: 'A', contacts: ['a@b'] }, /contacts\/0/],
      [{ name: 'A', contacts: ['dev@acme.test', 'DEV@acme.test'] }, /twice/],
      [{ name: 'A', contacts: ['a b@acme.test'] }, /contacts\/0/],
      [{ name: 'A', webhooks: [{ url: 'ftp://hooks.acme.test/x' }] }, /http or https/],
      [{ name: 'A', webhooks: [{ url: 'javascript:alert(1)' }] }, /http or https/],
      [{ name: 'A', webhooks: [{ url: 'hooks.acme.test/x' }] }, /absolute URL/],
      [{ name: 'A', webhooks: [{ url: 'http://10.1.2.3/x' }] }, /private address/],
      [{ name: 'A', webhooks: [{ url: 'http://169.254.169.254/latest/meta-data/' }] }, /linkLocal/],
      [{ name: 'A', webhooks: [{ url: 'http://[fd00::1]/x' }] }, /private/],
      [{ name: 'A', webhooks: [{ url: 'http://100.64.0.1/x' }] }, /carrierGradeNat/],
      [{ name: 'A', webhooks: [{ url: 'http://0.0.0.0/x' }] }, /special-purpose/],
      [{ name: 'A', webhooks: [{ url: 'https://u:p@hooks.acme.test/x' }] }, /credentials/],
      [{ name: 'A', webhooks: [{ url: hook, secret: 'mine' }] }, /./],
      [{ name: '' }, /./],
      [{ name: 'x'.repeat(201) }, /./],
      [{ contacts: [] }, /name/],
      [{ name: 'A', extra: 1 }, /./],
      [{ name: 'A', contacts: 'dev@acme.test' }, /./],
      [{ name: 'A', contacts: Array.from({ length: 51 }, (_, i) => `d${i}@acme.test`) }, /./],
      [[], /./],
    ];
    for (const [payload, pattern] of cases) {
      const problem = assertProblem(await post(payload), { status: 400 });
      assert.match(JSON.stringify(problem), pattern, JSON.stringify(payload));
    }
    assert.equal((await t.storage.clients.list({ limit: 10 })).items.length, 0, 'nothing was stored');
    await t.close();
  });

  it('refuses loopback webhooks unless the config allows them', async () => {
    const t = await createTestApp();
    const problem = assertProblem(
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/clients',
        headers: adminHeaders,
        payload: { name: 'A', webhooks: [{ url: hook }] },
      }),
      { status: 400, code: 'VALIDATION_FAILED' },
    );
    assert.equal(problem.errors?.[0]?.pointer, '/body/webhooks/0/url');
    assert.match(problem.detail, /loopback address.*allowPrivateTargets/);
    assertProblem(
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/clients',
        headers: adminHeaders,
        payload: { name: 'A', webhooks: [{ url: 'http://localhost:8080/x' }] },
      }),
      { status: 400 },
    );
    await t.close();
    await assert.rejects(
      createClientsTestApp({ webhooks: { allowPrivateTargets: ['everything'] } }),
      /webhooks.allowPrivateTargets must be a list of loopback, private, linkLocal, carrierGradeNat/,
    );
    await assert.rejects(createClientsTestApp({ usage: { rawRetentionDays: -1 } }), /usage.rawRetentionDays/);
  });

  it("changes a client: keeps unsubscribes and kept webhooks' secrets, shows only new secrets", async () => {
    const t = await createClientsTestApp();
    const client = await createClient(t.app, {
      name: 'Acme',
      contacts: ['dev@acme.test', 'ops@acme.test'],
      webhooks: [{ url: hook }],
    });
    const kept = (client.webhooks as Array<{ id: string; secret: string }>)[0]!;
    assert.equal(await t.storage.clients.setContactSubscribed(client.id, 'ops@acme.test', false), true);
    t.clock.set(Date.UTC(2026, 0, 16));
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/clients/${client.id}`,
      headers: adminHeaders,
      payload: {
        name: 'Acme Corp',
        contacts: ['ops@acme.test', 'new@acme.test'],
        webhooks: [{ id: kept.id }, { url: 'http://127.0.0.1:9/second' }],
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.name, 'Acme Corp');
    assert.deepEqual(
      body.contacts,
      [
        { email: 'ops@acme.test', subscribed: false },
        { email: 'new@acme.test', subscribed: true },
      ],
      're-sending an address does not resubscribe it',
    );
    assert.deepEqual(body.webhooks[0], { id: kept.id, url: hook });
    assert.match(body.webhooks[1].secret, /^whsec_/);
    assert.equal(body.updatedAt, '2026-01-16T00:00:00.000Z');
    const stored = await t.storage.clients.find(client.id);
    assert.equal(stored?.webhooks[0]?.secret, kept.secret);
    const merge = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/clients/${client.id}`,
      headers: { ...adminHeaders, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ webhooks: [] }),
    });
    assert.deepEqual(merge.json().webhooks, []);
    assert.deepEqual(merge.json().contacts, body.contacts, 'members not sent are kept');
    assertProblem(
      await t.app.inject({
        method: 'PATCH',
        url: `/admin/v1/clients/${client.id}`,
        headers: adminHeaders,
        payload: { webhooks: [{ id: 'wh_0000000000000000' }] },
      }),
      { status: 400 },
    );
    assertProblem(
      await t.app.inject({
        method: 'PATCH',
        url: `/admin/v1/clients/${client.id}`,
        headers: adminHeaders,
        payload: {},
      }),
      { status: 400 },
    );
    assertProblem(
      await t.app.inject({
        method: 'PATCH',
        url: `/admin/v1/clients/${client.id}`,
        headers: adminHeaders,
        payload: { webhooks: [{ url: 'http://192.168.0.1/' }] },
      }),
      { status: 400 },
    );
    assertProblem(
      await t.app.inject({
        method: 'PATCH',
        url: '/admin/v1/clients/cl_0000000000000000',
        headers: adminHeaders,
        payload: { name: 'x' },
      }),
      { status: 404, code: 'NOT_FOUND' },
    );
    await t.close();
  });

  it('pages through clients in creation order with an opaque cursor', async () => {
    const t = await createClientsTestApp();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.set(Date.UTC(2026, 0, 15, 12, i));
      ids.push((await createClient(t.app, { name: `c${i}` })).id);
    }
    const seen: string[] = [];
    let url = '/admin/v1/clients?limit=2';
    for (;;) {
      const page = (await t.app.inject({ url, headers: adminHeaders })).json();
      seen.push(...page.data.map((c: { id: string }) => c.id));
      assert.equal(page.meta.limit, 2);
      if (!page.meta.nextCursor) break;
      url = `/admin/v1/clients?limit=2&cursor=${page.meta.nextCursor}`;
    }
    assert.deepEqual(seen, ids);
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=nope', 'cursor=%00', 'other=1']) {
      assertProblem(await t.app.inject({ url: `/admin/v1/clients?${query}`, headers: adminHeaders }), { status: 400 });
    }
    await t.close();
  });

  it('answers unknown clients with 404, and deletes a client only once its keys are revoked', async () => {
    const t = await createClientsTestApp();
    for (const method of ['GET', 'DELETE'] as const) {
      assertProblem(
        await t.app.inject({ method, url: '/admin/v1/clients/cl_0000000000000000', headers: adminHeaders }),
        { status: 404, code: 'NOT_FOUND' },
      );
      assertProblem(
        await t.app.inject({ method, url: `/admin/v1/clients/${'x'.repeat(300)}`, headers: adminHeaders }),
        { status: 404 },
      ); // a malformed id names no client
    }
    const client = await createClient(t.app, { name: 'Acme' });
    const key = await createKey(t.app, { name: 'acme-ci', roles: ['read'], clientId: client.id });
    const keys = (await t.app.inject({ url: '/admin/v1/api-keys', headers: adminHeaders })).json().data;
    assert.equal(keys.find((k: { id: string }) => k.id === key.id).clientId, client.id);
    const refused = assertProblem(
      await t.app.inject({ method: 'DELETE', url: `/admin/v1/clients/${client.id}`, headers: adminHeaders }),
      { status: 409, code: 'CONFLICT' },
    );
    assert.match(refused.detail, new RegExp(key.id));
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${key.id}`, headers: adminHeaders })).statusCode,
      204,
    );
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: `/admin/v1/clients/${client.id}`, headers: adminHeaders }))
        .statusCode,
      204,
    );
    assertProblem(await t.app.inject({ url: `/admin/v1/clients/${client.id}`, headers: adminHeaders }), {
      status: 404,
    });
    assertProblem(
      await t.app.inject({ method: 'DELETE', url: `/admin/v1/clients/${client.id}`, headers: adminHeaders }),
      { status: 404 },
    );
    await t.close();
  });

  it('creates keys for a known client only', async () => {
    const t = await createClientsTestApp();
    const problem = assertProblem(
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/api-keys',
        headers: adminHeaders,
        payload: { name: 'k', roles: ['read'], clientId: 'cl_0000000000000000' },
      }),
      { status: 404, code: 'NOT_FOUND' },
    );
    assert.equal(problem.errors?.[0]?.pointer, '/body/clientId');
    assertProblem(
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/api-keys',
        headers: adminHeaders,
        payload: { name: 'k', roles: ['read'], clientId: '' },
      }),
      { status: 400 },
    );
    assertProblem(
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/api-keys',
        headers: adminHeaders,
        payload: { name: 'k', roles: ['read'], clientId: 7 },
      }),
      { status: 400 },
    );
    assert.equal((await t.storage.apiKeys.list()).filter((k) => k.name === 'k').length, 0);
    await t.close();
  });

  it('is for admins only: 401 without credentials, 403 with a consumer key', async () => {
    const t = await createClientsTestApp();
    const client = await createClient(t.app, { name: 'Acme' });
    const consumer = await createKey(t.app, { name: 'consumer', roles: ['read', 'write'], clientId: client.id });
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/admin/v1/clients', { name: 'x' }],
      ['GET', '/admin/v1/clients'],
      ['GET', `/admin/v1/clients/${client.id}`],
      ['PATCH', `/admin/v1/clients/${client.id}`, { name: 'x' }],
      ['DELETE', `/admin/v1/clients/${client.id}`],
      ['GET', '/admin/v1/usage/clients'],
      ['GET', '/admin/v1/usage/endpoints'],
      ['GET', '/admin/v1/usage/days'],
      ['GET', '/admin/v1/usage/operations'],
    ];
    for (const [method, url, payload] of routes) {
      const send = (headers: Record<string, string>) =>
        t.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload: payload as object } : {}) });
      assertProblem(await send({ authorization: '' }), { status: 401 });
      assertProblem(await send(consumer.headers), { status: 403, code: 'FORBIDDEN' });
    }
    assert.equal((await t.storage.clients.find(client.id))?.name, 'Acme');
    await t.close();
  });
});
