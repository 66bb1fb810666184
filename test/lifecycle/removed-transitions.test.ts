import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders, createTestApp, testEpoch, type TestApp } from '../support/test-app.ts';

const day = 86_400_000;
const removedConfig = {
  env: { VERSIONARY_CONFIG: '/c.json' },
  files: { '/c.json': JSON.stringify({ versions: { v1: { removed: true } } }) },
};

/** Every change the management API offers, aimed at v1: none may take it out of Removed. */
const attempts = [
  {
    name: 'reschedule with 9 months of notice (Removed → Deprecated)',
    method: 'PUT',
    url: '/admin/v1/versions/v1/deprecation',
    payload: { noticeMonths: 9 },
  },
  {
    name: 'deprecate with the default notice (Removed → Deprecated)',
    method: 'PUT',
    url: '/admin/v1/versions/v1/deprecation',
    payload: {},
  },
  {
    name: 'a critical fix with a near sunset (Removed → Sunset window)',
    method: 'PUT',
    url: '/admin/v1/versions/v1/deprecation',
    payload: { reason: 'critical-fix', sunsetAt: new Date(testEpoch + 40 * day).toISOString() },
  },
  {
    name: 'a backdated deprecation (Removed → Sunset window)',
    method: 'PUT',
    url: '/admin/v1/versions/v1/deprecation',
    payload: {
      deprecatedAt: new Date(testEpoch - 200 * day).toISOString(),
      sunsetAt: new Date(testEpoch + 10 * day).toISOString(),
      reason: 'critical-fix',
    },
  },
  {
    name: 'deprecate one endpoint of the removed version',
    method: 'POST',
    url: '/admin/v1/deprecations',
    payload: { version: 'v1', method: 'GET', path: '/users', noticeMonths: 6 },
  },
] as const;

async function assertStillRemoved(t: TestApp, before: string): Promise<void> {
  assert.equal(JSON.stringify(await t.storage.lifecycle.listSchedules()), before, 'the stored schedule is untouched');
  assert.deepEqual(await t.storage.lifecycle.listEndpointDeprecations(), [], 'no endpoint deprecation was stored');
  assertProblem(await t.app.inject({ url: '/api/v1/users' }), { status: 410, code: 'VERSION_REMOVED' });
  const admin = (await t.app.inject({ url: '/admin/v1/versions/v1', headers: adminHeaders })).json();
  assert.equal(admin.removed, true);
  assert.equal(admin.status, 'removed');
}

describe('no way out of Removed', () => {
  for (const [how, options] of [
    ['flagged removed in the config', removedConfig],
    ['past its sunset date', {}],
  ] as const) {
    it(`refuses every change to a version ${how} with 409, changing nothing`, async () => {
      const t = await createTestApp(options);
      if (how === 'past its sunset date') {
        t.clock.set(testEpoch + 200 * day);
        assertProblem(await t.app.inject({ url: '/api/v1/users' }), { status: 410 });
      }
      const before = JSON.stringify(await t.storage.lifecycle.listSchedules());
      for (const attempt of attempts) {
        const res = await t.app.inject({
          method: attempt.method,
          url: attempt.url,
          payload: attempt.payload,
          headers: adminHeaders,
        });
        const problem = assertProblem(res, { status: 409, code: 'TRANSITION_NOT_ALLOWED' });
        assert.match(problem.detail, /no way out of Removed/, attempt.name);
        await assertStillRemoved(t, before);
      }
      for (const method of ['DELETE', 'PATCH', 'POST'] as const) {
        const res = await t.app.inject({
          method,
          url: '/admin/v1/versions/v1/deprecation',
          payload: {},
          headers: adminHeaders,
        });
        assert.ok(res.statusCode === 404 || res.statusCode === 405, `${method} has no route: ${res.statusCode}`);
        await assertStillRemoved(t, before);
      }
      await t.close();
    });
  }

  it('keeps a removed version removed across a restart whose config no longer says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'versionary-removed-'));
    const databasePath = join(dir, 'db.sqlite');
    try {
      const first = await createTestApp({ ...removedConfig, databasePath });
      await first.close();
      const later = {
        versions: {
          v1: {
            deprecatedAt: new Date(testEpoch).toISOString(),
            sunsetAt: new Date(testEpoch + 400 * day).toISOString(),
          },
        },
      };
      const second = await createTestApp({
        env: { VERSIONARY_CONFIG: '/c.json' },
        files: { '/c.json': JSON.stringify(later) },
        databasePath,
      });
      assertProblem(await second.app.inject({ url: '/api/v1/users' }), { status: 410, code: 'VERSION_REMOVED' });
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('still lets an active or deprecated version be scheduled (the allowed transitions)', async () => {
    const t = await createTestApp();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/admin/v1/versions/v1/deprecation',
      payload: { noticeMonths: 9 },
      headers: adminHeaders,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().sunsetAt, new Date(testEpoch + 270 * day).toISOString());
    await t.close();
  });
});
