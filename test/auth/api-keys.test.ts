import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp } from '../support/test-app.ts';

const none = { authorization: '' };

test('resources need credentials: 401 with WWW-Authenticate and a problem body', async () => {
  const t = await createTestApp();
  const res = await t.app.inject({ url: '/api/v2/users', headers: none });
  assertProblem(res, { status: 401, code: 'UNAUTHENTICATED' });
  assert.match(String(res.headers['www-authenticate']), /^Bearer realm="versionary"/);
  for (const url of ['/api/versions', '/api/v2/openapi.json', '/healthz']) {
    assert.equal((await t.app.inject({ url, headers: none })).statusCode, 200, `${url} is public`);
  }
  await t.close();
});

test('malformed Authorization headers are 401, never 5xx', async () => {
  const t = await createTestApp();
  const bad = [
    'Bearer',
    'Bearer ',
    'Basic dXNlcjpwYXNz',
    'bearer',
    'Bearer a b',
    'Token vk_x',
    'Bearer \u00e9\u00e9',
    'Bearer vk_0123456789abcdef.short',
    `Bearer vk_${'0'.repeat(16)}.${'A'.repeat(43)}`,
    'Bearer eyJ.eyJ.sig',
  ];
  for (const authorization of bad) {
    const res = await t.app.inject({ url: '/api/v2/users', headers: { authorization } });
    assert.equal(res.statusCode, 401, `${JSON.stringify(authorization)} → ${res.statusCode}`);
    assert.match(String(res.headers['content-type']), /problem\+json/);
  }
  await t.close();
});

test('a 20 kB token over a real socket is a 401 problem', async () => {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const res = await fetch(`http://127.0.0.1:${port}/api/v2/users`, {
    headers: { authorization: `Bearer ${'a'.repeat(20 * 1024)}` },
  });
  assert.equal(res.status, 401);
  assert.match(String(res.headers.get('content-type')), /problem\+json/);
  await t.close();
});

test('keys: created with roles, shown once, listed without secrets, revoked at once', async () => {
  const t = await createTestApp({ admin: true });
  const created = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/api-keys',
    payload: { name: 'reader', roles: ['read'], contact: 'ops@example.com' },
  });
  assert.equal(created.statusCode, 201);
  const { id, key, roles } = created.json();
  assert.match(key, /^vk_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(roles, ['read']);
  const listed = await t.app.inject({ url: '/admin/v1/api-keys' });
  assert.ok(!listed.body.includes(key.split('.')[1]), 'no secret in the list');
  assert.ok(listed.json().data.some((k: { id: string }) => k.id === id));
  const stored = await t.storage.apiKeys.find(id);
  assert.ok(stored && !JSON.stringify(stored).includes(key), 'only a hash is stored');

  const asReader = { authorization: `Bearer ${key}` };
  assert.equal((await t.app.inject({ url: '/api/v2/users', headers: asReader })).statusCode, 200);
  assert.equal(
    (await t.app.inject({ url: '/api/v2/users', headers: { 'x-api-key': key, authorization: '' } })).statusCode,
    200,
  );
  const write = await t.app.inject({ method: 'POST', url: '/api/v2/users', headers: asReader, payload: { name: 'x' } });
  assertProblem(write, { status: 403, code: 'FORBIDDEN' });
  assert.equal(await t.storage.users.count(), 0);
  assertProblem(await t.app.inject({ url: '/admin/v1/versions', headers: asReader }), {
    status: 403,
    code: 'FORBIDDEN',
  });

  assert.equal((await t.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${id}` })).statusCode, 204);
  assertProblem(await t.app.inject({ url: '/api/v2/users', headers: asReader }), {
    status: 401,
    code: 'UNAUTHENTICATED',
  });
  assert.equal((await t.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${id}` })).statusCode, 404);
  await t.close();
});

test('bad key requests are 400, and a writer can write but not manage', async () => {
  const t = await createTestApp({ admin: true });
  for (const payload of [
    { name: 'x', roles: ['root'] },
    { name: '', roles: ['read'] },
    { roles: ['read'] },
    { name: 'x', roles: [] },
    { name: 'x', roles: ['read'], contact: 'nope' },
  ]) {
    assert.equal(
      (await t.app.inject({ method: 'POST', url: '/admin/v1/api-keys', payload })).statusCode,
      400,
      JSON.stringify(payload),
    );
  }
  const { key } = (
    await t.app.inject({ method: 'POST', url: '/admin/v1/api-keys', payload: { name: 'w', roles: ['read', 'write'] } })
  ).json();
  assert.equal(
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { authorization: `Bearer ${key}` },
        payload: { name: 'x' },
      })
    ).statusCode,
    201,
  );
  assert.equal(
    (
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/api-keys',
        headers: { authorization: `Bearer ${key}` },
        payload: { name: 'y', roles: ['admin'] },
      })
    ).statusCode,
    403,
  );
  await t.close();
});

test('without VERSIONARY_ADMIN_KEY the first start creates an admin key, told once, that works', async () => {
  const { buildApp } = await import('../../src/compose/build-app.ts');
  const { referenceProduct } = await import('../../src/reference/product.ts');
  const { loadConfig } = await import('../../src/loop/settings.ts');
  const { openSqliteStorage } = await import('../../src/storage/sqlite/open-sqlite-storage.ts');
  const { createFixedClock } = await import('../../src/core/clock/index.ts');
  const config = loadConfig({ env: { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }, readFile: () => '' });
  const storage = await openSqliteStorage({ path: ':memory:' });
  const clock = createFixedClock(Date.UTC(2026, 0, 1));
  const seen: string[] = [];
  const first = await buildApp({
    product: referenceProduct(),
    config,
    storage,
    clock,
    onBootstrapKey: (k) => seen.push(k),
  });
  assert.equal(seen.length, 1);
  const res = await first.inject({
    method: 'POST',
    url: '/admin/v1/api-keys',
    headers: { authorization: `Bearer ${seen[0]}` },
    payload: { name: 'ci', roles: ['read'] },
  });
  assert.equal(res.statusCode, 201);
  await first.close();
  const second = await buildApp({
    product: referenceProduct(),
    config,
    storage,
    clock,
    onBootstrapKey: (k) => seen.push(k),
  });
  assert.equal(seen.length, 1, 'a restart prints nothing new');
  await second.close();
  await storage.close();
});
