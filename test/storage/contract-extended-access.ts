import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ExtendedAccessGrant, Storage } from '../../src/kernel/ports/index.ts';

const t0 = Date.UTC(2026, 10, 1);
const day = 86_400_000;
const grant = (id: string, over: Partial<ExtendedAccessGrant> = {}): ExtendedAccessGrant => ({
  id,
  clientId: 'acme',
  subject: { kind: 'version', version: 'v1' },
  until: t0 + 30 * day,
  reason: 'migration planned for Q1',
  grantedBy: 'owner (key_0000000000000001)',
  grantedAt: t0,
  revokedAt: null,
  revokedBy: null,
  ...over,
});

/** Grants of extended access: each subject kept whole, listed per client, revocation kept in the trail. */
export function runExtendedAccessContract(storage: () => Storage): void {
  it('stores grants of every subject kind, lists them per client, and keeps revoked ones', async () => {
    const s = storage().extendedAccess;
    const endpoint = grant('exm_2', {
      grantedAt: t0 + 1,
      subject: { kind: 'endpoint', version: 'v1', method: 'GET', path: '/users/{id}' },
    });
    const element = grant('exm_3', {
      clientId: 'globex',
      grantedAt: t0 + 2,
      subject: { kind: 'element', version: 'v2', element: 'User.nickname' },
    });
    await s.insert(grant('exm_1'));
    await s.insert(endpoint);
    await s.insert(element);
    assert.deepEqual(await s.find('exm_1'), grant('exm_1'));
    assert.deepEqual(await s.find('exm_2'), endpoint);
    assert.deepEqual(await s.find('exm_3'), element);
    assert.equal(await s.find('exm_9'), undefined);
    const ids = (list: ExtendedAccessGrant[]) => list.map((e) => e.id);
    assert.deepEqual(ids(await s.list()), ['exm_1', 'exm_2', 'exm_3']);
    assert.deepEqual(ids(await s.list({ clientId: 'acme' })), ['exm_1', 'exm_2']);

    assert.equal(await s.revoke({ id: 'exm_1', at: t0 + 10, by: 'admin' }), true);
    assert.equal(await s.revoke({ id: 'exm_1', at: t0 + 20, by: 'other' }), false, 'revoked once');
    assert.equal(await s.revoke({ id: 'exm_9', at: t0, by: 'admin' }), false);
    assert.deepEqual(ids(await s.list({ clientId: 'acme' })), ['exm_2']);
    const all = await s.list({ includeRevoked: true });
    assert.deepEqual(all[0], grant('exm_1', { revokedAt: t0 + 10, revokedBy: 'admin' }));
  });

  it('keeps the extended-access cap and the closing date of schedules and endpoint deprecations', async () => {
    const s = storage().lifecycle;
    const dates = { extendedAccessUntil: t0 + 90 * day, closedToNewClientsAt: t0 + day };
    await s.saveSchedule({
      version: 'v7',
      deprecatedAt: t0,
      sunsetAt: t0 + 60 * day,
      removed: false,
      reason: 'planned',
      migrationUrl: null,
      ...dates,
    });
    const schedule = (await s.listSchedules()).find((x) => x.version === 'v7');
    assert.equal(schedule?.extendedAccessUntil, dates.extendedAccessUntil);
    assert.equal(schedule?.closedToNewClientsAt, dates.closedToNewClientsAt);
    const base = { version: 'v7', method: 'GET', path: '/users', deprecatedAt: t0, sunsetAt: t0 + 60 * day };
    await s.saveEndpointDeprecation({ ...base, migrationUrl: null, ...dates });
    let found = (await s.listEndpointDeprecations()).find((x) => x.version === 'v7');
    assert.equal(found?.extendedAccessUntil, dates.extendedAccessUntil);
    await s.saveEndpointDeprecation({ ...base, migrationUrl: null });
    found = (await s.listEndpointDeprecations()).find((x) => x.version === 'v7');
    assert.equal(found?.extendedAccessUntil, undefined, 'absent when unset');
    assert.equal(found?.closedToNewClientsAt, undefined);
  });

  it('answers whether a client called a version, endpoint or element before an instant', async () => {
    const u = storage().usage;
    const at = t0 + 5 * day;
    await u.insert([
      { version: 'v8', endpoint: 'GET /users', clientId: 'early', at },
      { version: 'v8', endpoint: 'GET /users', clientId: 'early', at, element: 'User.nickname' },
    ]);
    assert.equal(await u.calledBefore({ clientId: 'early', version: 'v8', before: at + 1 }), true);
    assert.equal(await u.calledBefore({ clientId: 'early', version: 'v8', before: at }), false);
    assert.equal(
      await u.calledBefore({ clientId: 'early', version: 'v8', endpoint: 'GET /users', before: at + 1 }),
      true,
    );
    assert.equal(
      await u.calledBefore({ clientId: 'early', version: 'v8', endpoint: 'POST /users', before: at + 1 }),
      false,
    );
    assert.equal(
      await u.calledBefore({ clientId: 'early', version: 'v8', element: 'User.nickname', before: at + 1 }),
      true,
    );
    assert.equal(await u.calledBefore({ clientId: 'late', version: 'v8', before: at + 1 }), false);
    const hour = 3_600_000;
    await u.addOperationCounts([
      { hour: t0, version: 'v9', endpoint: 'GET /posts', clientId: 'current', calls: 2, lastSeen: t0 + 10 },
    ]);
    assert.equal(await u.calledBefore({ clientId: 'current', version: 'v9', before: t0 + hour }), true);
    assert.equal(
      await u.calledBefore({ clientId: 'current', version: 'v9', before: t0 + hour - 1 }),
      false,
      'whole hours',
    );
  });
}
