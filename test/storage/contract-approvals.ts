import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ChangeApproval, Storage } from '../../src/kernel/ports/index.ts';

const t0 = Date.UTC(2026, 10, 1);
const approval = (id: string, over: Partial<ChangeApproval> = {}): ChangeApproval => ({
  id,
  fingerprint: '0123456789abcdef',
  reason: 'agreed with Acme',
  approvedBy: 'release (key_0000000000000001)',
  approvedAt: t0,
  expiresAt: null,
  revokedAt: null,
  revokedBy: null,
  ...over,
});

/** Change approvals: active ones listed, expiry and revocation honoured, the audit trail kept. */
export function runApprovalsContract(storage: () => Storage): void {
  it('stores approvals, lists the active ones, and keeps revoked and expired ones in the trail', async () => {
    const s = storage().approvals;
    await s.insert(approval('apv_0000000000000001', { expiresAt: t0 + 2 * 3_600_000 }));
    await s.insert(approval('apv_0000000000000002', { approvedAt: t0 + 1, fingerprint: 'fedcba9876543210' }));
    await s.insert(approval('apv_0000000000000003', { approvedAt: t0 + 2 }));
    assert.deepEqual(
      await s.find('apv_0000000000000001'),
      approval('apv_0000000000000001', { expiresAt: t0 + 7_200_000 }),
    );
    assert.equal(await s.find('apv_0000000000000009'), undefined);

    assert.equal(await s.revoke({ id: 'apv_0000000000000003', at: t0 + 10, by: 'admin' }), true);
    assert.equal(await s.revoke({ id: 'apv_0000000000000003', at: t0 + 20, by: 'other' }), false, 'revoked once');
    assert.equal(await s.revoke({ id: 'apv_0000000000000009', at: t0, by: 'admin' }), false);
    const ids = (list: ChangeApproval[]) => list.map((a) => a.id);
    assert.deepEqual(ids(await s.list({ now: t0 + 3_600_000 })), ['apv_0000000000000001', 'apv_0000000000000002']);
    assert.deepEqual(ids(await s.list({ now: t0 + 7_200_000 })), ['apv_0000000000000002'], 'expired at its instant');
    const all = await s.list({ now: t0 + 7_200_000, includeRevoked: true });
    assert.deepEqual(ids(all), ['apv_0000000000000001', 'apv_0000000000000002', 'apv_0000000000000003']);
    assert.deepEqual(
      all[2],
      approval('apv_0000000000000003', { approvedAt: t0 + 2, revokedAt: t0 + 10, revokedBy: 'admin' }),
    );
  });
}
