import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders, consumerHeaders, createTestApp, testEpoch } from '../support/test-app.ts';

const fingerprint = '0123456789abcdef';
const minute = 60_000;
const hour = 60 * minute;

describe('the approvals management API', () => {
  it('approves by fingerprint, names the approver from the credential, and revokes keeping the trail', async () => {
    const t = await createTestApp({ admin: true });
    const key = (
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/api-keys',
        payload: { name: 'release-manager', roles: ['admin'] },
      })
    ).json() as { id: string; key: string };
    const asRelease = { authorization: `Bearer ${key.key}` };
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/approvals',
      headers: asRelease,
      payload: { fingerprint, reason: 'Acme moved to v3', expiresAt: '2026-02-01' },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.match(created.id, /^apv_[0-9a-f]{16}$/);
    assert.equal(res.headers.location, `/admin/v1/approvals/${created.id}`);
    assert.deepEqual(created, {
      id: created.id,
      fingerprint,
      reason: 'Acme moved to v3',
      approvedBy: `release-manager (${key.id})`,
      approvedAt: new Date(testEpoch).toISOString(),
      expiresAt: '2026-02-01T00:00:00.000Z',
      revokedAt: null,
      revokedBy: null,
    });
    // A later approval lists after it: the list is ordered by approval time (then id, for ties).
    t.clock.advance(minute);
    const other = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/approvals',
      payload: { fingerprint: 'fedcba9876543210', reason: 'nobody calls it' },
    });
    assert.equal(other.json().approvedBy, 'admin', 'VERSIONARY_ADMIN_KEY acts as admin');

    const list = async (query = '') =>
      ((await t.app.inject({ url: `/admin/v1/approvals${query}` })).json() as { data: Array<{ id: string }> }).data;
    assert.deepEqual(
      (await list()).map((a) => a.id),
      [created.id, other.json().id],
    );

    t.clock.advance(hour);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/approvals/${other.json().id}`,
      headers: asRelease,
    });
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.equal(revoked.json().revokedBy, `release-manager (${key.id})`);
    assert.equal(revoked.json().revokedAt, new Date(testEpoch + minute + hour).toISOString());
    const again = await t.app.inject({ method: 'DELETE', url: `/admin/v1/approvals/${other.json().id}` });
    assertProblem(again, { status: 404, code: 'NOT_FOUND' });

    t.clock.set(Date.UTC(2026, 1, 1));
    assert.deepEqual(await list(), [], 'expired at expiresAt, revoked at once');
    assert.deepEqual(
      (await list('?include=revoked')).map((a) => a.id),
      [created.id, other.json().id],
    );
    await t.close();
  });

  it('answers problems for bad input, and needs the admin role', async () => {
    const t = await createTestApp({ admin: true });
    const post = (payload: object, headers = adminHeaders) =>
      t.app.inject({ method: 'POST', url: '/admin/v1/approvals', headers, payload });
    for (const payload of [
      { fingerprint: 'not-a-fingerprint', reason: 'r' },
      { fingerprint, reason: '' },
      { fingerprint },
      { fingerprint, reason: 'r', approvedBy: 'someone else' },
      { fingerprint, reason: 'r', expiresAt: 'tomorrow' },
    ])
      assertProblem(await post(payload), { status: 400 });
    const past = assertProblem(await post({ fingerprint, reason: 'r', expiresAt: '2026-01-01' }), { status: 400 });
    assert.equal(past.errors?.[0]?.pointer, '/body/expiresAt');
    assertProblem(await t.app.inject({ url: '/admin/v1/approvals?include=all' }), { status: 400 });
    assertProblem(await t.app.inject({ method: 'DELETE', url: '/admin/v1/approvals/apv_0000000000000000' }), {
      status: 404,
    });
    assertProblem(await post({ fingerprint, reason: 'r' }, consumerHeaders), { status: 403 });
    await t.close();
  });
});
