import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createTestApp, testEpoch } from '../support/test-app.ts';

const admin = { authorization: 'Bearer test-admin-key-0123456789' };
const env = { VERSIONARY_ADMIN_KEY: 'test-admin-key-0123456789' };
const day = 86_400_000;

test('a config that breaks a policy rule refuses to start, naming the rule and the numbers', async () => {
  const file = {
    versions: {
      v1: {
        releasedAt: '2024-01-01T00:00:00Z',
        deprecatedAt: '2026-01-01T00:00:00Z',
        sunsetAt: '2026-02-01T00:00:00Z',
      },
      v2: { releasedAt: '2025-06-01T00:00:00Z' },
    },
  };
  await assert.rejects(
    createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify(file) } }),
    (error: Error & { code?: string }) =>
      error.code === 'INVALID_CONFIG' && /notice-period/.test(error.message) && /31 days/.test(error.message),
  );
  const enterprise = {
    audience: 'enterprise',
    versions: {
      v1: {
        releasedAt: '2024-01-01T00:00:00Z',
        deprecatedAt: '2026-01-01T00:00:00Z',
        sunsetAt: '2026-09-01T00:00:00Z',
      },
      v2: { releasedAt: '2025-06-01T00:00:00Z' },
    },
  };
  await assert.rejects(
    createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify(enterprise) } }),
    /notice-period/,
  );
});

test('the management API needs the admin key', async () => {
  const t = await createTestApp({ env });
  const none = await t.app.inject({ url: '/admin/v1/versions', headers: { authorization: '' } });
  assert.equal(none.statusCode, 401);
  assert.match(String(none.headers['www-authenticate']), /^Bearer/);
  assert.equal(
    (await t.app.inject({ url: '/admin/v1/versions', headers: { authorization: 'Bearer wrong' } })).statusCode,
    401,
  );
  assert.equal((await t.app.inject({ url: '/admin/v1/versions', headers: admin })).statusCode, 200);
  await t.close();
});

test('scheduling through the API: 404 unknown, 409 without replacement, 400 on policy, 200 and live headers when valid', async () => {
  const t = await createTestApp({ env });
  const put = (name: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/admin/v1/versions/${name}/deprecation`, headers: admin, payload });
  assert.equal((await put('v9', {})).statusCode, 404);
  const none = await put('v2', {});
  assert.equal(none.statusCode, 409);
  assert.equal(none.json().code, 'NO_REPLACEMENT');
  const short = await put('v1', { noticeMonths: 2 });
  assert.equal(short.statusCode, 400);
  assert.equal(short.json().rule, 'notice-period');
  const vague = await put('v1', { noticeMonths: 1, reason: 'critical-fix' });
  assert.equal(vague.statusCode, 400, 'a critical fix still names a concrete sunset date');
  const fix = await put('v1', { reason: 'critical-fix', sunsetAt: new Date(testEpoch + 30 * day).toISOString() });
  assert.equal(fix.statusCode, 200, fix.body);
  assert.equal(fix.json().sunsetAt, new Date(testEpoch + 30 * day).toISOString());
  const res = await t.app.inject({ url: '/api/v1/users' });
  assert.equal(res.headers.sunset, new Date(testEpoch + 30 * day).toISOString());
  await t.close();
});

test('schedules persist across a restart, and usage summaries match the calls exactly', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-'));
  const databasePath = join(dir, 'db.sqlite');
  try {
    const first = await createTestApp({ env, databasePath });
    const key = async (name: string) =>
      (
        await first.app.inject({
          method: 'POST',
          url: '/admin/v1/api-keys',
          headers: admin,
          payload: { name, roles: ['read'] },
        })
      ).json() as { id: string; key: string };
    const [a, b, c] = [await key('a'), await key('b'), await key('c')];
    const calls = [
      [a, '/api/v1/users'],
      [b, '/api/v1/users'],
      [a, '/api/v1/users/5'],
      [c, '/api/v2/users'],
    ] as const;
    for (const [k, url] of calls) await first.app.inject({ url, headers: { authorization: `Bearer ${k.key}` } });
    const summary = (await first.app.inject({ url: '/admin/v1/versions/v1', headers: admin })).json();
    assert.deepEqual(summary.usage, { calls: 3, clients: 2, endpoints: 2 });
    const deprecatedAt = summary.deprecatedAt;
    await first.close();

    const second = await createTestApp({ env, databasePath, now: testEpoch + day });
    const again = (await second.app.inject({ url: '/admin/v1/versions/v1', headers: admin })).json();
    assert.equal(again.deprecatedAt, deprecatedAt, 'the default schedule is kept, not renewed');
    assert.deepEqual(again.usage, { calls: 3, clients: 2, endpoints: 2 });
    await second.app.inject({ url: '/api/v1/users', headers: { 'x-api-key': c.key } });
    const calls2 = (
      await second.app.inject({ url: `/admin/v1/versions/v1/calls?clientId=${a.id}`, headers: admin })
    ).json();
    assert.deepEqual(
      calls2.data.map((c: { endpoint: string }) => c.endpoint),
      ['GET /users', 'GET /users/{id}'],
    );
    assert.deepEqual((await second.app.inject({ url: '/admin/v1/versions/v1', headers: admin })).json().usage, {
      calls: 4,
      clients: 3,
      endpoints: 2,
    });
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an endpoint deprecation through the API applies at once and is checked against policy', async () => {
  const t = await createTestApp({ env });
  const post = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/admin/v1/deprecations', headers: admin, payload });
  assert.equal((await post({ version: 'v2', method: 'GET', path: '/nope' })).statusCode, 404);
  assert.equal((await post({ version: 'v2', method: 'GET', path: '/users', noticeMonths: 1 })).statusCode, 400);
  const ok = await post({ version: 'v2', method: 'GET', path: '/users', noticeMonths: 7 });
  assert.equal(ok.statusCode, 201, ok.body);
  assert.ok((await t.app.inject({ url: '/api/v2/users' })).headers.sunset);
  assert.equal((await t.app.inject({ url: '/api/v2/users/1' })).headers.sunset, undefined);
  await t.close();
});

test('every lifecycle rule broken at start is reported together, each named', async () => {
  const file = {
    versions: {
      v1: {
        releasedAt: '2024-01-01T00:00:00Z',
        deprecatedAt: '2026-06-01T00:00:00Z',
        sunsetAt: '2026-01-01T00:00:00Z',
      },
      v2: {
        releasedAt: '2025-06-01T00:00:00Z',
        deprecatedAt: '2026-01-01T00:00:00Z',
        sunsetAt: '2027-06-01T00:00:00Z',
      },
    },
  };
  await assert.rejects(
    createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify(file) } }),
    (error: Error & { code?: string }) =>
      error.code === 'INVALID_CONFIG' && /sunset-order/.test(error.message) && /replacement-exists/.test(error.message),
  );
});

test('bad lifecycle keys are config errors, all at once', async () => {
  const file = {
    audience: 'everyone',
    removedStatus: 500,
    headerStyle: 'x',
    endpointDeprecations: [{ version: 'v2' }],
  };
  await assert.rejects(
    createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify(file) } }),
    (error: Error) =>
      ['audience', 'removedStatus', 'headerStyle', 'endpointDeprecations[0]'].every((k) => error.message.includes(k)),
  );
});

test('a deprecated call reaches the stored usage within one second, without any flush request', async () => {
  const t = await createTestApp({ env });
  const started = Date.now();
  await t.app.inject({ url: '/api/v1/users' });
  let summary = await t.storage.usage.summary('v1');
  while (summary.calls === 0 && Date.now() - started < 1000) {
    await new Promise((r) => setTimeout(r, 20));
    summary = await t.storage.usage.summary('v1');
  }
  assert.deepEqual(summary, { calls: 1, clients: 1, endpoints: 1 });
  assert.deepEqual(
    await t.storage.usage.summary('v2'),
    { calls: 0, clients: 0, endpoints: 0 },
    'current versions are not recorded',
  );
  await t.close();
});

test('breaking versions released less than 12 months apart start with a warning, not a refusal', async () => {
  const { createLifecycleRuntime } = await import('../../src/loop/lifecycle/runtime.ts');
  const { parseLifecycleSettings } = await import('../../src/loop/lifecycle/settings.ts');
  const { openSqliteStorage } = await import('../../src/storage/sqlite/open-sqlite-storage.ts');
  const storage = await openSqliteStorage({ path: ':memory:' });
  const errors: string[] = [];
  const settings = parseLifecycleSettings({
    file: { versions: { v1: { releasedAt: '2025-01-01T00:00:00Z' }, v2: { releasedAt: '2025-06-01T00:00:00Z' } } },
    errors,
  });
  assert.deepEqual(errors, []);
  const runtime = await createLifecycleRuntime({
    settings,
    store: storage.lifecycle,
    clock: { now: () => testEpoch },
    prefix: '/api',
    versions: [
      { name: 'v1', releasedAt: 0 },
      { name: 'v2', releasedAt: 0 },
    ],
  });
  assert.equal(runtime.warnings.length, 1);
  assert.equal(runtime.warnings[0]!.rule, 'breaking-spacing');
  assert.match(runtime.warnings[0]!.detail, /v1.*v2|v2.*v1/);
  await storage.close();
});
