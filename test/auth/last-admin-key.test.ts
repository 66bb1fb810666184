import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createApiKey } from '../../src/loop/access/auth/api-keys.ts';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp, testEpoch } from '../support/test-app.ts';

// No VERSIONARY_ADMIN_KEY: the stored keys are the only way in.
const noEnvKey = { env: { VERSIONARY_ADMIN_KEY: '' } };

describe('the last active admin key', () => {
  it('cannot revoke itself without an environment admin key (409), and keeps working', async () => {
    const t = await createTestApp(noEnvKey);
    const { record, key } = await createApiKey({
      store: t.storage.apiKeys,
      name: 'ops',
      roles: ['admin'],
      now: testEpoch,
    });
    const headers = { authorization: `Bearer ${key}` };
    const listed = (await t.app.inject({ url: '/admin/v1/api-keys', headers })).json() as {
      data: Array<{ id: string; roles: string[]; revokedAt: string | null }>;
    };
    const bootstrap = listed.data.find((k) => k.id !== record.id && k.roles.includes('admin'))!;
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${bootstrap.id}`, headers })).statusCode,
      204,
      'one of two admin keys may go',
    );
    const self = await t.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${record.id}`, headers });
    const problem = assertProblem(self, { status: 409, code: 'LAST_ADMIN_KEY' });
    assert.match(problem.detail, /last active admin key/);
    assert.equal(await t.storage.apiKeys.countActiveAdmins(), 1);
    assert.equal(
      (await t.app.inject({ url: '/admin/v1/api-keys', headers })).statusCode,
      200,
      'the operator is not locked out',
    );
    await t.close();
  });

  it('cannot be revoked by two concurrent requests that each revoke one of the last two', async () => {
    const t = await createTestApp(noEnvKey);
    const a = await createApiKey({ store: t.storage.apiKeys, name: 'a', roles: ['admin'], now: testEpoch });
    const headers = { authorization: `Bearer ${a.key}` };
    const bootstrap = (
      (await t.app.inject({ url: '/admin/v1/api-keys', headers })).json() as {
        data: Array<{ id: string; roles: string[] }>;
      }
    ).data.find((k) => k.id !== a.record.id && k.roles.includes('admin'))!;
    const results = await Promise.all(
      [bootstrap.id, a.record.id].map((id) =>
        t.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${id}`, headers }),
      ),
    );
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [204, 409]);
    assert.equal(await t.storage.apiKeys.countActiveAdmins(), 1);
    await t.close();
  });

  it('can be revoked when VERSIONARY_ADMIN_KEY is set, and other keys always can', async () => {
    const t = await createTestApp();
    const headers = { authorization: 'Bearer test-admin-key-0123456789' };
    const listed = (await t.app.inject({ url: '/admin/v1/api-keys', headers })).json() as {
      data: Array<{ roles: string[] }>;
    };
    assert.equal(
      listed.data.filter((k) => k.roles.includes('admin')).length,
      0,
      'no bootstrap key with an environment key',
    );
    const only = await createApiKey({ store: t.storage.apiKeys, name: 'only', roles: ['admin'], now: testEpoch });
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${only.record.id}`, headers })).statusCode,
      204,
    );
    await t.close();
    const u = await createTestApp(noEnvKey);
    const admin = await createApiKey({ store: u.storage.apiKeys, name: 'admin', roles: ['admin'], now: testEpoch });
    const reader = await createApiKey({ store: u.storage.apiKeys, name: 'reader', roles: ['read'], now: testEpoch });
    const res = await u.app.inject({
      method: 'DELETE',
      url: `/admin/v1/api-keys/${reader.record.id}`,
      headers: { authorization: `Bearer ${admin.key}` },
    });
    assert.equal(res.statusCode, 204);
    await u.close();
  });
});
